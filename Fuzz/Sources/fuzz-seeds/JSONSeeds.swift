@testable import CastCore

/// Payloads of every platform namespace, written as senders and receivers send them.
enum JSONSeeds {
    static func seeds() throws -> SeedSet {
        var set = SeedSet(target: "json")
        let payloads: [(String, String)] = [
            (
                "connect",
                #"{"type":"CONNECT","origin":{},"userAgent":"swift-cast","senderInfo":{"sdkType":2,"#
                    + #""version":"1.0","browserVersion":"","platform":4,"connectionType":1},"connType":0}"#
            ),
            ("close", #"{"type":"CLOSE","reasonCode":5}"#),
            ("ping", #"{"type":"PING"}"#),
            ("pong", #"{"type":"PONG"}"#),
            ("get-status", #"{"type":"GET_STATUS","requestId":1}"#),
            (
                "launch",
                #"{"type":"LAUNCH","requestId":2,"appId":"CC1AD845","language":"en-US","#
                    + #""supportedAppTypes":["WEB"]}"#
            ),
            ("stop", #"{"type":"STOP","requestId":3,"sessionId":"7E2FF513-CDF6-9A91-2B28-3E3DE7BAC174"}"#),
            ("set-volume", #"{"type":"SET_VOLUME","requestId":4,"volume":{"level":0.25,"muted":false}}"#),
            ("app-availability", #"{"type":"GET_APP_AVAILABILITY","requestId":5,"appId":["CC1AD845","233637DE"]}"#),
            (
                "receiver-status",
                #"{"type":"RECEIVER_STATUS","requestId":1,"status":{"applications":[{"#
                    + #""appId":"CC1AD845","displayName":"Default Media Receiver","isIdleScreen":false,"#
                    + #""launchedFromCloud":false,"namespaces":[{"name":"urn:x-cast:com.google.cast.media"}],"#
                    + #""sessionId":"7E2FF513","statusText":"Ready To Cast","transportId":"web-5"}],"#
                    + #""userEq":{},"volume":{"controlType":"attenuation","level":1.0,"muted":false,"stepInterval":0.05}}}"#
            ),
            ("launch-error", #"{"type":"LAUNCH_ERROR","requestId":2,"reason":"NOT_FOUND"}"#),
            (
                "load",
                #"{"type":"LOAD","requestId":6,"sessionId":"7E2FF513","media":{"contentId":"#
                    + #""http://127.0.0.1:8000/big.mp4","streamType":"BUFFERED","contentType":"video/mp4","#
                    + #""duration":596.5,"metadata":{"metadataType":1,"title":"Big Buck Bunny","#
                    + #""images":[{"url":"http://127.0.0.1/i.jpg","width":480,"height":360}]},"#
                    + #""tracks":[{"trackId":1,"type":"TEXT","trackContentId":"http://127.0.0.1/en.vtt","#
                    + #""trackContentType":"text/vtt","subtype":"SUBTITLES","name":"English","language":"en"}],"#
                    + ##""textTrackStyle":{"backgroundColor":"#00000000","fontScale":1.2,"edgeType":"OUTLINE"}},"##
                    + #""autoplay":true,"currentTime":12.5,"activeTrackIds":[1],"customData":{"k":[1,2.5e3,null]}}"#
            ),
            ("play", #"{"type":"PLAY","requestId":7,"mediaSessionId":1}"#),
            (
                "seek",
                #"{"type":"SEEK","requestId":8,"mediaSessionId":1,"currentTime":42,"resumeState":"PLAYBACK_PAUSE"}"#
            ),
            (
                "media-status",
                #"{"type":"MEDIA_STATUS","requestId":0,"status":[{"mediaSessionId":1,"#
                    + #""playbackRate":1,"playerState":"PLAYING","currentTime":13.2,"supportedMediaCommands":274447,"#
                    + #""volume":{"level":1,"muted":false},"activeTrackIds":[],"currentItemId":1,"repeatMode":"REPEAT_OFF"}]}"#
            ),
            (
                "queue-load",
                #"{"type":"QUEUE_LOAD","requestId":9,"items":[{"media":{"contentId":"a","#
                    + #""streamType":"BUFFERED","contentType":"audio/mp3"},"autoplay":true,"startTime":0}],"#
                    + #""startIndex":0,"repeatMode":"REPEAT_ALL"}"#
            ),
            ("load-failed", #"{"type":"LOAD_FAILED","requestId":6,"detailedErrorCode":104}"#),
            ("unknown-type", #"{"type":"SOMETHING_NEW","requestId":10,"x":[true,false,null,"\u00e9\ud83d\ude00"]}"#),
            (
                "response-type",
                #"{"responseType":"GET_APP_AVAILABILITY","requestId":5,"availability":{"#
                    + #""CC1AD845":"APP_AVAILABLE"}}"#
            ),
            ("numbers", #"[0,-0,1e-7,1.7976931348623157e308,18446744073709551615,-9223372036854775808,0.1]"#),
            ("escapes", #"{"s":"\"\\\/\b\f\n\r\t\u0000\u001f"}"#),
            ("deep", String(repeating: "[", count: 60) + String(repeating: "]", count: 60)),
        ]
        for (name, text) in payloads {
            set.add(name, text)
        }
        return set
    }
}
