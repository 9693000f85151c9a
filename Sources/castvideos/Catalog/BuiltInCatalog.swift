import Foundation

/// The catalog that ships with the app, so the app works offline. Its videos, studios and
/// descriptions are invented; the host name is reserved (`.invalid`) and never resolves.
/// The app serves the catalog's pictures, videos, ad clips, live stream and captions itself
/// (``BuiltInMediaServer``), and the catalog then names that server (``json(mediaBase:)``).
///
/// It keeps the CastVideos format (categories with base URLs, videos with sources, images
/// and text tracks) and uses three additions the app reads (see ``Catalog``): ad breaks
/// (`breakClips`, `breaks`), an `hls` base and source type, and `live`.
enum BuiltInCatalog {
    static let source = "built-in catalog"

    /// Where ``json`` says its media is; the app serves it itself (``BuiltInMediaServer``)
    /// and then names its own server instead.
    static let mediaHost = "https://media.castvideos.invalid/"

    /// The catalog with its media at `mediaBase` (``BuiltInMediaServer/baseURL``); `nil`
    /// keeps ``mediaHost``, which nothing serves.
    static func json(mediaBase: String?) -> String {
        guard let mediaBase else { return json }
        return json.replacingOccurrences(of: mediaHost, with: mediaBase)
    }

    static let json = #"""
        {
          "categories": [
            {
              "name": "Shorts",
              "mp4": "https://media.castvideos.invalid/mp4/",
              "images": "https://media.castvideos.invalid/images/",
              "tracks": "https://media.castvideos.invalid/tracks/",
              "videos": [
                {
                  "title": "Harbour Lights",
                  "subtitle": "A night shift at a small fishing port",
                  "description": "Trawlers come home under sodium lamps while the harbour master counts the boats. A quiet portrait of the hours between midnight and dawn.",
                  "studio": "Tidewater Films",
                  "duration": 612,
                  "image-480x270": "480x270/harbour-lights.jpg",
                  "image-780x1200": "780x1200/harbour-lights.jpg",
                  "sources": [{ "type": "mp4", "mime": "video/mp4", "url": "harbour-lights.mp4" }],
                  "tracks": [
                    { "id": "1", "type": "text", "subtype": "captions", "contentId": "harbour-lights-en.vtt", "name": "English", "language": "en-US" },
                    { "id": "2", "type": "text", "subtype": "subtitles", "contentId": "harbour-lights-fr.vtt", "name": "Français", "language": "fr-FR" }
                  ]
                },
                {
                  "title": "Paper Orbit",
                  "subtitle": "Stop-motion astronauts made of folded paper",
                  "description": "Two origami astronauts drift around a desk lamp sun and argue about the way home. Shot frame by frame over one winter.",
                  "studio": "Fold & Frame",
                  "duration": 434,
                  "image-480x270": "480x270/paper-orbit.jpg",
                  "image-780x1200": "780x1200/paper-orbit.jpg",
                  "sources": [{ "type": "mp4", "mime": "video/mp4", "url": "paper-orbit.mp4" }]
                },
                {
                  "title": "The Last Tram",
                  "subtitle": "One route, one driver, forty years",
                  "description": "On the night the city retires its oldest tram line, its longest-serving driver makes the final run and remembers the passengers who rode with her.",
                  "studio": "Northline Docs",
                  "duration": 1325,
                  "image-480x270": "480x270/last-tram.jpg",
                  "image-780x1200": "780x1200/last-tram.jpg",
                  "sources": [{ "type": "mp4", "mime": "video/mp4", "url": "last-tram.mp4" }],
                  "tracks": [
                    { "id": "1", "type": "text", "subtype": "captions", "contentId": "last-tram-en.vtt", "name": "English", "language": "en-US" }
                  ]
                },
                {
                  "title": "Salt and Smoke",
                  "subtitle": "Curing fish the slow way",
                  "description": "A family smokehouse on a windy coast keeps a three-day recipe alive. Oak chips, sea salt and a great deal of patience.",
                  "studio": "Tidewater Films",
                  "duration": 748,
                  "image-480x270": "480x270/salt-and-smoke.jpg",
                  "image-780x1200": "780x1200/salt-and-smoke.jpg",
                  "sources": [{ "type": "mp4", "mime": "video/mp4", "url": "salt-and-smoke.mp4" }],
                  "breakClips": [
                    { "id": "tidewater-promo", "title": "Tidewater Films presents", "url": "ads/tidewater-promo.mp4", "duration": 30, "whenSkippable": 12, "poster": "480x270/tidewater-promo.jpg" }
                  ],
                  "breaks": [{ "id": "preroll", "position": 0, "breakClipIds": ["tidewater-promo"] }]
                }
              ]
            },
            {
              "name": "Animation",
              "mp4": "https://media.castvideos.invalid/mp4/",
              "images": "https://media.castvideos.invalid/images/",
              "tracks": "https://media.castvideos.invalid/tracks/",
              "videos": [
                {
                  "title": "Clockwork Garden",
                  "subtitle": "A robot gardener and a stubborn weed",
                  "description": "In a greenhouse run by gears, one weed refuses to be pruned. A wordless comedy about keeping things tidy and letting things grow.",
                  "studio": "Brass Sparrow Animation",
                  "duration": 527,
                  "image-480x270": "480x270/clockwork-garden.jpg",
                  "image-780x1200": "780x1200/clockwork-garden.jpg",
                  "sources": [{ "type": "mp4", "mime": "video/mp4", "url": "clockwork-garden.mp4" }]
                },
                {
                  "title": "Moth and Lantern",
                  "subtitle": "A short fable in candlelight",
                  "description": "A moth falls for a paper lantern at a summer fair. Hand-painted on glass and lit from below.",
                  "studio": "Brass Sparrow Animation",
                  "duration": 296,
                  "image-480x270": "480x270/moth-and-lantern.jpg",
                  "image-780x1200": "780x1200/moth-and-lantern.jpg",
                  "sources": [{ "type": "mp4", "mime": "video/mp4", "url": "moth-and-lantern.mp4" }]
                },
                {
                  "title": "Sixteen Bits of Rain",
                  "subtitle": "A pixel-art city in a storm",
                  "description": "A rainy evening in a city drawn one pixel at a time, scored with a chiptune orchestra.",
                  "studio": "Lowres Collective",
                  "duration": 381,
                  "image-480x270": "480x270/sixteen-bits.jpg",
                  "image-780x1200": "780x1200/sixteen-bits.jpg",
                  "sources": [{ "type": "mp4", "mime": "video/mp4", "url": "sixteen-bits-of-rain.mp4" }]
                }
              ]
            },
            {
              "name": "Science",
              "mp4": "https://media.castvideos.invalid/mp4/",
              "images": "https://media.castvideos.invalid/images/",
              "tracks": "https://media.castvideos.invalid/tracks/",
              "videos": [
                {
                  "title": "How Bridges Hold",
                  "subtitle": "Arches, cables and trusses explained",
                  "description": "Models, load tests and a collapsing spaghetti truss show why some bridges stand for centuries and others do not.",
                  "studio": "Open Workbench",
                  "duration": 904,
                  "image-480x270": "480x270/how-bridges-hold.jpg",
                  "image-780x1200": "780x1200/how-bridges-hold.jpg",
                  "sources": [{ "type": "mp4", "mime": "video/mp4", "url": "how-bridges-hold.mp4" }],
                  "breakClips": [
                    { "id": "workbench-kits", "title": "Open Workbench kits", "url": "ads/workbench-kits.mp4", "duration": 10, "poster": "480x270/workbench-kits.jpg" },
                    { "id": "tidewater-promo", "title": "Tidewater Films presents", "url": "ads/tidewater-promo.mp4", "duration": 30, "whenSkippable": 12, "poster": "480x270/tidewater-promo.jpg" }
                  ],
                  "breaks": [{ "id": "midroll", "position": 120, "breakClipIds": ["workbench-kits", "tidewater-promo"] }],
                  "tracks": [
                    { "id": "1", "type": "text", "subtype": "captions", "contentId": "how-bridges-hold-en.vtt", "name": "English", "language": "en-US" }
                  ]
                },
                {
                  "title": "A Year in a Pond",
                  "subtitle": "Time-lapse of a garden pond",
                  "description": "Twelve months of frogspawn, dragonflies, autumn leaves and ice, filmed by a camera that never moved.",
                  "studio": "Open Workbench",
                  "duration": 1088,
                  "image-480x270": "480x270/year-in-a-pond.jpg",
                  "image-780x1200": "780x1200/year-in-a-pond.jpg",
                  "sources": [{ "type": "mp4", "mime": "video/mp4", "url": "year-in-a-pond.mp4" }]
                },
                {
                  "title": "Counting Stars",
                  "subtitle": "Amateur astronomers map the night sky",
                  "description": "A club of backyard astronomers spends a season cataloguing variable stars and finds something nobody expected.",
                  "studio": "Northline Docs",
                  "duration": 1512,
                  "image-480x270": "480x270/counting-stars.jpg",
                  "image-780x1200": "780x1200/counting-stars.jpg",
                  "sources": [{ "type": "mp4", "mime": "video/mp4", "url": "counting-stars.mp4" }]
                }
              ]
            },
            {
              "name": "Live",
              "hls": "https://media.castvideos.invalid/hls/",
              "images": "https://media.castvideos.invalid/images/",
              "videos": [
                {
                  "title": "Harbour Cam",
                  "subtitle": "Live from the harbour wall",
                  "description": "A camera on the harbour wall, around the clock: boats, gulls and the tide, as it happens.",
                  "studio": "Tidewater Films",
                  "live": true,
                  "image-480x270": "480x270/harbour-cam.png",
                  "image-780x1200": "780x1200/harbour-cam.jpg",
                  "sources": [{ "type": "hls", "mime": "application/x-mpegurl", "url": "harbour-cam.m3u8" }]
                }
              ]
            }
          ]
        }
        """#
}
