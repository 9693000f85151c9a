/// A detailed media error code (`detailedErrorCode` of `LOAD_FAILED` and `ERROR`).
///
/// An open set: values this version does not know are kept as they are.
public struct DetailedErrorCode: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByIntegerLiteral,
    CustomStringConvertible
{
    public let rawValue: Int

    public init(rawValue: Int) { self.rawValue = rawValue }
    public init(integerLiteral value: Int) { self.rawValue = value }
    public var description: String { "\(rawValue)" }

    /// 100 `MEDIA_UNKNOWN`.
    public static let mediaUnknown: DetailedErrorCode = 100
    /// 101 `MEDIA_ABORTED`.
    public static let mediaAborted: DetailedErrorCode = 101
    /// 102 `MEDIA_DECODE`.
    public static let mediaDecode: DetailedErrorCode = 102
    /// 103 `MEDIA_NETWORK`.
    public static let mediaNetwork: DetailedErrorCode = 103
    /// 104 `MEDIA_SRC_NOT_SUPPORTED`.
    public static let mediaSourceNotSupported: DetailedErrorCode = 104
    /// 110 `SOURCE_BUFFER_FAILURE`.
    public static let sourceBufferFailure: DetailedErrorCode = 110
    /// 200 `MEDIAKEYS_UNKNOWN`.
    public static let mediakeysUnknown: DetailedErrorCode = 200
    /// 201 `MEDIAKEYS_NETWORK`.
    public static let mediakeysNetwork: DetailedErrorCode = 201
    /// 202 `MEDIAKEYS_UNSUPPORTED`.
    public static let mediakeysUnsupported: DetailedErrorCode = 202
    /// 203 `MEDIAKEYS_WEBCRYPTO`.
    public static let mediakeysWebcrypto: DetailedErrorCode = 203
    /// 300 `NETWORK_UNKNOWN`.
    public static let networkUnknown: DetailedErrorCode = 300
    /// 301 `SEGMENT_NETWORK`.
    public static let segmentNetwork: DetailedErrorCode = 301
    /// 311 `HLS_NETWORK_MASTER_PLAYLIST`.
    public static let hlsNetworkMasterPlaylist: DetailedErrorCode = 311
    /// 312 `HLS_NETWORK_PLAYLIST`.
    public static let hlsNetworkPlaylist: DetailedErrorCode = 312
    /// 313 `HLS_NETWORK_NO_KEY_RESPONSE`.
    public static let hlsNetworkNoKeyResponse: DetailedErrorCode = 313
    /// 314 `HLS_NETWORK_KEY_LOAD`.
    public static let hlsNetworkKeyLoad: DetailedErrorCode = 314
    /// 315 `HLS_NETWORK_INVALID_SEGMENT`.
    public static let hlsNetworkInvalidSegment: DetailedErrorCode = 315
    /// 316 `HLS_SEGMENT_PARSING`.
    public static let hlsSegmentParsing: DetailedErrorCode = 316
    /// 321 `DASH_NETWORK`.
    public static let dashNetwork: DetailedErrorCode = 321
    /// 322 `DASH_NO_INIT`.
    public static let dashNoInit: DetailedErrorCode = 322
    /// 331 `SMOOTH_NETWORK`.
    public static let smoothNetwork: DetailedErrorCode = 331
    /// 332 `SMOOTH_NO_MEDIA_DATA`.
    public static let smoothNoMediaData: DetailedErrorCode = 332
    /// 400 `MANIFEST_UNKNOWN`.
    public static let manifestUnknown: DetailedErrorCode = 400
    /// 411 `HLS_MANIFEST_MASTER`.
    public static let hlsManifestMaster: DetailedErrorCode = 411
    /// 412 `HLS_MANIFEST_PLAYLIST`.
    public static let hlsManifestPlaylist: DetailedErrorCode = 412
    /// 420 `DASH_MANIFEST_UNKNOWN`.
    public static let dashManifestUnknown: DetailedErrorCode = 420
    /// 421 `DASH_MANIFEST_NO_PERIODS`.
    public static let dashManifestNoPeriods: DetailedErrorCode = 421
    /// 422 `DASH_MANIFEST_NO_MIMETYPE`.
    public static let dashManifestNoMimetype: DetailedErrorCode = 422
    /// 423 `DASH_INVALID_SEGMENT_INFO`.
    public static let dashInvalidSegmentInfo: DetailedErrorCode = 423
    /// 431 `SMOOTH_MANIFEST`.
    public static let smoothManifest: DetailedErrorCode = 431
    /// 500 `SEGMENT_UNKNOWN`.
    public static let segmentUnknown: DetailedErrorCode = 500
    /// 600 `TEXT_UNKNOWN`.
    public static let textUnknown: DetailedErrorCode = 600
    /// 900 `APP`.
    public static let app: DetailedErrorCode = 900
    /// 901 `BREAK_CLIP_LOADING_ERROR`.
    public static let breakClipLoadingError: DetailedErrorCode = 901
    /// 902 `BREAK_SEEK_INTERCEPTOR_ERROR`.
    public static let breakSeekInterceptorError: DetailedErrorCode = 902
    /// 903 `IMAGE_ERROR`.
    public static let imageError: DetailedErrorCode = 903
    /// 904 `LOAD_INTERRUPTED`.
    public static let loadInterrupted: DetailedErrorCode = 904
    /// 905 `LOAD_FAILED`.
    public static let loadFailed: DetailedErrorCode = 905
    /// 906 `MEDIA_ERROR_MESSAGE`.
    public static let mediaErrorMessage: DetailedErrorCode = 906
    /// 909 `GENERIC`.
    public static let generic: DetailedErrorCode = 909
}

extension DetailedErrorCode: TokenDecodable, TokenEncodable {}
