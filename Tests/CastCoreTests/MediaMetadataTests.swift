import Testing

@testable import CastCore

@Suite struct MediaMetadataTests {
    @Test func typedAccessorsReadAndWriteTheStandardKeys() throws {
        var metadata = MediaMetadata(metadataType: .tvShow)
        metadata.title = "Pilot"
        metadata.seriesTitle = "The Show"
        metadata.season = 2
        metadata.episode = 5
        metadata.originalAirdate = "2020-01-01"
        metadata.latitude = 51.5
        metadata.sectionDuration = 12.5
        metadata.images = [MediaImage(url: "https://example.com/a.jpg", width: 100, height: 50)]
        #expect(metadata.fields["season"] == 2)
        #expect(metadata["seriesTitle"] == "The Show")
        let text = try JSONPayloadEncoder().encode(metadata)
        #expect(
            text
                == #"{"metadataType":2,"episode":5,"latitude":51.5,"originalAirdate":"2020-01-01","season":2,"sectionDuration":12.5,"seriesTitle":"The Show","title":"Pilot","images":[{"url":"https://example.com/a.jpg","width":100,"height":50}]}"#
        )
        let decoded = try JSONPayloadDecoder().decode(MediaMetadata.self, from: text)
        #expect(decoded == metadata)
        #expect(decoded.season == 2)
        #expect(decoded.latitude == 51.5)
        metadata.title = nil
        #expect(metadata.fields["title"] == nil)
    }

    @Test(arguments: [
        (MediaMetadataType.generic, 0), (.movie, 1), (.tvShow, 2), (.musicTrack, 3), (.photo, 4),
        (.audiobookChapter, 5), (.user, 100),
    ])
    func metadataTypeValues(type: MediaMetadataType, value: Int) {
        #expect(type.rawValue == value)
    }

    @Test func keepsAppDefinedKeysAndUserTypes() throws {
        let payload =
            #"{"metadataType":101,"title":"Song","trackNumber":3,"myRating":{"stars":4},"tags":["a"],"images":[{"url":"u"}]}"#
        for usesTokenDecodable in [true, false] {
            var decoder = JSONPayloadDecoder()
            decoder.usesTokenDecodable = usesTokenDecodable
            let metadata = try decoder.decode(MediaMetadata.self, from: payload)
            #expect(metadata.metadataType == MediaMetadataType(rawValue: 101))
            #expect(metadata.trackNumber == 3)
            #expect(metadata["myRating"] == ["stars": 4])
            #expect(metadata["tags"] == ["a"])
            #expect(metadata.images == [MediaImage(url: "u")])
            #expect(try JSONValue(parsing: JSONPayloadEncoder().encode(metadata)) == JSONValue(parsing: payload))
        }
    }

    @Test func absentTypeIsGenericAndNullImagesAreEmpty() throws {
        let metadata = try JSONPayloadDecoder().decode(MediaMetadata.self, from: #"{"title":"x","images":null}"#)
        #expect(metadata == MediaMetadata(metadataType: .generic, images: [], fields: ["title": "x"]))
    }

    @Test func typedAccessorsIgnoreValuesOfTheWrongType() throws {
        let metadata = try JSONPayloadDecoder().decode(MediaMetadata.self, from: #"{"title":5,"season":"two"}"#)
        #expect(metadata.title == nil)
        #expect(metadata.season == nil)
        #expect(metadata["title"] == 5)
    }
}
