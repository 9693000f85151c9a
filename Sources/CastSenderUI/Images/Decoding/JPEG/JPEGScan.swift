/// One scan of a JPEG image (its SOS segment) and the entropy decoding of its data into the
/// frame's coefficients: sequential scans (ITU T.81, F.2) and the four kinds of progressive
/// scan (G.1.2): DC first and refinement, AC first and refinement with end-of-band runs.
struct JPEGScan {
    /// A component of the scan: its index in the frame and its Huffman tables.
    struct Member {
        var component: Int
        var dcTable: Int
        var acTable: Int
    }

    var members: [Member]
    /// The first and last zig-zag positions coded (Ss, Se).
    var spectralStart: Int
    var spectralEnd: Int
    /// The successive approximation bit positions (Ah, Al).
    var approximationHigh: Int
    var approximationLow: Int

    /// Reads an SOS segment's payload against the frame.
    /// - Throws: ``ImageDecodingError/Kind/corruptData`` for unknown components, bad table
    ///   selectors or a spectral selection the frame's coding does not allow.
    init(segment: ArraySlice<UInt8>, frame: JPEGFrame) throws(ImageDecodingError) {
        let data = Array(segment)
        guard let count = data.first.map(Int.init), (1...4).contains(count), data.count == 1 + count * 2 + 3 else {
            throw ImageDecodingError(.corruptData, "SOS of \(data.count) bytes")
        }
        var members: [Member] = []
        for index in 0..<count {
            let id = data[1 + index * 2]
            let tables = data[2 + index * 2]
            guard let component = frame.components.firstIndex(where: { $0.id == id }) else {
                throw ImageDecodingError(.corruptData, "SOS names component \(id), which SOF does not define")
            }
            guard !members.contains(where: { $0.component == component }) else {
                throw ImageDecodingError(.corruptData, "SOS names component \(id) twice")
            }
            let dc = Int(tables >> 4)
            let ac = Int(tables & 0x0F)
            guard dc < 4, ac < 4 else {
                throw ImageDecodingError(.corruptData, "SOS selects Huffman tables \(dc) and \(ac)")
            }
            members.append(Member(component: component, dcTable: dc, acTable: ac))
        }
        self.members = members
        spectralStart = Int(data[1 + count * 2])
        spectralEnd = Int(data[2 + count * 2])
        approximationHigh = Int(data[3 + count * 2] >> 4)
        approximationLow = Int(data[3 + count * 2] & 0x0F)
        switch frame.coding {
        case .sequential:
            guard spectralStart == 0, spectralEnd == 63, approximationHigh == 0, approximationLow == 0 else {
                throw ImageDecodingError(
                    .corruptData,
                    "a sequential scan codes positions \(spectralStart)...\(spectralEnd)"
                )
            }
        case .progressive:
            let dcScan = spectralStart == 0
            guard spectralStart <= spectralEnd, spectralEnd <= 63, dcScan == (spectralEnd == 0),
                dcScan || members.count == 1, approximationHigh <= 13, approximationLow <= 13
            else {
                throw ImageDecodingError(
                    .corruptData,
                    "a progressive scan codes positions \(spectralStart)...\(spectralEnd) of \(members.count) components"
                )
            }
            guard approximationHigh == 0 || approximationHigh == approximationLow + 1 else {
                throw ImageDecodingError(
                    .corruptData,
                    "a progressive scan refines bit \(approximationLow) after bit \(approximationHigh)"
                )
            }
        }
        let blocksPerMCU =
            members.count == 1
            ? 1
            : members.reduce(0) {
                $0 + frame.components[$1.component].horizontal * frame.components[$1.component].vertical
            }
        guard blocksPerMCU <= 10 else {
            throw ImageDecodingError(.corruptData, "an MCU of \(blocksPerMCU) blocks (at most 10)")
        }
    }

    /// Whether the scan codes DC coefficients (DC scans and sequential scans).
    var codesDC: Bool { spectralStart == 0 }
}

extension JPEGFrame {
    /// Decodes a scan's entropy-coded data, which starts at `start`, into the coefficients.
    /// - Returns: where the data ends: the position of the marker after it.
    /// - Throws: ``ImageDecodingError/Kind/corruptData`` for data cut short, a missing table, a
    ///   bad code or a missing restart marker.
    mutating func decode(
        _ scan: JPEGScan,
        bytes: UnsafeBufferPointer<UInt8>,
        start: Int,
        dcTables: [JPEGHuffmanTable?],
        acTables: [JPEGHuffmanTable?],
        restartInterval: Int
    ) throws(ImageDecodingError) -> Int {
        // The tables each member needs must be defined.
        for member in scan.members {
            let id = components[member.component].id
            if scan.codesDC, scan.approximationHigh == 0, dcTables[member.dcTable] == nil {
                throw ImageDecodingError(.corruptData, "component \(id) uses DC table \(member.dcTable), not defined")
            }
            if scan.spectralEnd > 0, acTables[member.acTable] == nil {
                throw ImageDecodingError(.corruptData, "component \(id) uses AC table \(member.acTable), not defined")
            }
        }
        let components = self.components
        let coding = self.coding
        let mcusPerLine = self.mcusPerLine
        var reader = JPEGBitReader(bytes: bytes, position: start)
        var predictions = [Int](repeating: 0, count: scan.members.count)
        var endOfBandRun = 0
        var restartIndex = 0
        let single = scan.members.count == 1
        let mcuCount: Int
        if single {
            let component = components[scan.members[0].component]
            mcuCount = component.dataBlocksPerLine * component.dataBlocksPerColumn
        } else {
            mcuCount = mcusPerLine * self.mcusPerColumn
        }
        try coefficients.withUnsafeMutableBufferPointer { (all) throws(ImageDecodingError) in
            for mcu in 0..<mcuCount {
                if restartInterval > 0, mcu > 0, mcu % restartInterval == 0 {
                    let marker = reader.markerPosition()
                    let expected = UInt8(0xD0 + restartIndex % 8)
                    guard marker + 1 < bytes.count, bytes[marker + 1] == expected else {
                        throw ImageDecodingError(
                            .corruptData,
                            "restart marker RST\(restartIndex % 8) missing at byte \(marker)"
                        )
                    }
                    restartIndex += 1
                    reader.restart(at: marker + 2)
                    for index in predictions.indices { predictions[index] = 0 }
                    endOfBandRun = 0
                }
                for (memberIndex, member) in scan.members.enumerated() {
                    let component = components[member.component]
                    // A non-interleaved scan's MCU is one block, in the component's own
                    // raster of data blocks; an interleaved one is H × V blocks of each.
                    let rows = single ? 1 : component.vertical
                    let columns = single ? 1 : component.horizontal
                    let firstRow = single ? mcu / component.dataBlocksPerLine : (mcu / mcusPerLine) * rows
                    let firstColumn = single ? mcu % component.dataBlocksPerLine : (mcu % mcusPerLine) * columns
                    for blockRow in firstRow..<(firstRow + rows) {
                        for blockColumn in firstColumn..<(firstColumn + columns) {
                            let offset =
                                component.coefficientOffset + (blockRow * component.blocksPerLine + blockColumn) * 64
                            let block = UnsafeMutableBufferPointer(rebasing: all[offset..<(offset + 64)])
                            try Self.decodeBlock(
                                block,
                                scan: scan,
                                member: member,
                                sequential: coding == .sequential,
                                reader: &reader,
                                prediction: &predictions[memberIndex],
                                run: &endOfBandRun,
                                dcTables: dcTables,
                                acTables: acTables
                            )
                        }
                    }
                }
                if reader.hasOverrun {
                    throw ImageDecodingError(
                        .corruptData,
                        "the scan's data ends after \(mcu) of \(mcuCount) MCUs (the file is cut short)"
                    )
                }
            }
        }
        return reader.markerPosition()
    }

    /// One block of a scan, by the kind of scan.
    @inline(__always)
    private static func decodeBlock(
        _ block: UnsafeMutableBufferPointer<Int16>,
        scan: JPEGScan,
        member: JPEGScan.Member,
        sequential: Bool,
        reader: inout JPEGBitReader,
        prediction: inout Int,
        run endOfBandRun: inout Int,
        dcTables: [JPEGHuffmanTable?],
        acTables: [JPEGHuffmanTable?]
    ) throws(ImageDecodingError) {
        // The tables were checked before the scan began.
        if sequential {
            try decodeSequential(
                block,
                reader: &reader,
                prediction: &prediction,
                dc: dcTables[member.dcTable]!,
                ac: acTables[member.acTable]!
            )
        } else if scan.codesDC {
            if scan.approximationHigh == 0 {
                prediction &+= try dcDifference(&reader, dcTables[member.dcTable]!)
                block[0] = Int16(truncatingIfNeeded: prediction << scan.approximationLow)
            } else if reader.bit() {
                block[0] |= Int16(truncatingIfNeeded: 1 << scan.approximationLow)
            }
        } else if scan.approximationHigh == 0 {
            try decodeACFirst(block, scan: scan, reader: &reader, run: &endOfBandRun, ac: acTables[member.acTable]!)
        } else {
            try decodeACRefinement(
                block,
                scan: scan,
                reader: &reader,
                run: &endOfBandRun,
                ac: acTables[member.acTable]!
            )
        }
    }

    /// The DC difference of a block (F.2.2.1).
    @inline(__always)
    private static func dcDifference(
        _ reader: inout JPEGBitReader,
        _ table: JPEGHuffmanTable
    ) throws(ImageDecodingError)
        -> Int
    {
        let size = try reader.decode(table)
        guard size <= 11 else { throw ImageDecodingError(.corruptData, "a DC difference of \(size) bits") }
        return reader.signed(size)
    }

    /// A whole block of a sequential scan (F.2.2).
    private static func decodeSequential(
        _ block: UnsafeMutableBufferPointer<Int16>,
        reader: inout JPEGBitReader,
        prediction: inout Int,
        dc: JPEGHuffmanTable,
        ac: JPEGHuffmanTable
    ) throws(ImageDecodingError) {
        prediction &+= try dcDifference(&reader, dc)
        block[0] = Int16(truncatingIfNeeded: prediction)
        var k = 1
        while k < 64 {
            let symbol = try reader.decode(ac)
            let run = symbol >> 4
            let size = symbol & 0x0F
            if size == 0 {
                if run != 15 { break }
                k += 16
                continue
            }
            k += run
            guard k < 64 else { throw ImageDecodingError(.corruptData, "an AC run past the end of a block") }
            block[jpegZigZag[k]] = Int16(truncatingIfNeeded: reader.signed(size))
            k += 1
        }
    }

    /// The first scan of a spectral band (G.1.2.2).
    private static func decodeACFirst(
        _ block: UnsafeMutableBufferPointer<Int16>,
        scan: JPEGScan,
        reader: inout JPEGBitReader,
        run endOfBandRun: inout Int,
        ac: JPEGHuffmanTable
    ) throws(ImageDecodingError) {
        if endOfBandRun > 0 {
            endOfBandRun -= 1
            return
        }
        var k = scan.spectralStart
        while k <= scan.spectralEnd {
            let symbol = try reader.decode(ac)
            let run = symbol >> 4
            let size = symbol & 0x0F
            if size == 0 {
                if run < 15 {
                    endOfBandRun = (1 << run) - 1 + reader.bits(run)
                    break
                }
                k += 16
                continue
            }
            k += run
            guard k <= scan.spectralEnd else {
                throw ImageDecodingError(.corruptData, "an AC run past the end of the spectral band")
            }
            block[jpegZigZag[k]] = Int16(truncatingIfNeeded: reader.signed(size) << scan.approximationLow)
            k += 1
        }
    }

    /// A refinement scan of a spectral band (G.1.2.3): one more bit of every coefficient
    /// already non-zero, and new coefficients of magnitude one.
    private static func decodeACRefinement(
        _ block: UnsafeMutableBufferPointer<Int16>,
        scan: JPEGScan,
        reader: inout JPEGBitReader,
        run endOfBandRun: inout Int,
        ac: JPEGHuffmanTable
    ) throws(ImageDecodingError) {
        let plus = Int16(truncatingIfNeeded: 1 << scan.approximationLow)
        let minus = Int16(truncatingIfNeeded: -1 << scan.approximationLow)
        @inline(__always) func refine(_ index: Int, _ reader: inout JPEGBitReader) {
            let value = block[index]
            if reader.bit(), value & plus == 0 {
                block[index] = value &+ (value >= 0 ? plus : minus)
            }
        }
        var k = scan.spectralStart
        if endOfBandRun == 0 {
            while k <= scan.spectralEnd {
                let symbol = try reader.decode(ac)
                var zeros = symbol >> 4
                let size = symbol & 0x0F
                var newValue: Int16 = 0
                if size != 0 {
                    guard size == 1 else {
                        throw ImageDecodingError(.corruptData, "a refinement coefficient of \(size) bits")
                    }
                    newValue = reader.bit() ? plus : minus
                } else if zeros != 15 {
                    endOfBandRun = (1 << zeros) + reader.bits(zeros)
                    break
                }
                // Skip `zeros` coefficients that are still zero, refining the non-zero ones on
                // the way; the new coefficient goes at the next zero.
                while k <= scan.spectralEnd {
                    let index = jpegZigZag[k]
                    if block[index] != 0 {
                        refine(index, &reader)
                    } else {
                        if zeros == 0 { break }
                        zeros -= 1
                    }
                    k += 1
                }
                if newValue != 0 {
                    guard k <= scan.spectralEnd else {
                        throw ImageDecodingError(.corruptData, "a refinement run past the end of the spectral band")
                    }
                    block[jpegZigZag[k]] = newValue
                }
                k += 1
            }
        }
        if endOfBandRun > 0 {
            // Inside an end-of-band run: only the non-zero coefficients take a bit.
            while k <= scan.spectralEnd {
                let index = jpegZigZag[k]
                if block[index] != 0 { refine(index, &reader) }
                k += 1
            }
            endOfBandRun -= 1
        }
    }
}
