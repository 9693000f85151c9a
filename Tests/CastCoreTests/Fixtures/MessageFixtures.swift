/// Payloads shaped like those real senders (pychromecast, Chrome, Android) and receivers
/// (Default Media Receiver, CAF) exchange. Every member is one the message types model, so a
/// decode → encode round trip must reproduce each payload's JSON value exactly.
enum MessageFixtures {
    // MARK: tp.connection

    static let connection: [String] = [
        // pychromecast 14 (socket_client.py)
        #"{"type":"CONNECT","origin":{},"userAgent":"PyChromecast","senderInfo":{"sdkType":2,"version":"15.605.1.3","browserVersion":"44.0.2403.30","platform":4,"systemVersion":"Macintosh; Intel Mac OS X10_10_3","connectionType":1}}"#,
        #"{"type":"CONNECT"}"#,
        // Chromium's sender for an app connection
        #"{"type":"CONNECT","origin":{},"userAgent":"Mozilla/5.0 (X11; Linux x86_64)","senderInfo":{"sdkType":2,"version":"120.0.6099.0","browserVersion":"120.0.6099.0","platform":6,"connectionType":1,"systemVersion":"Linux x86_64"},"connType":2,"protocolVersion":1,"protocolVersionList":[1,0]}"#,
        #"{"type":"CLOSE","reasonCode":5}"#,
        #"{"type":"CLOSE"}"#,
        #"{"type":"CONNECTED","protocolVersion":1}"#,
    ]

    // MARK: tp.heartbeat

    static let heartbeat: [String] = [
        #"{"type":"PING"}"#,
        // pychromecast adds a request id to its pings
        #"{"type":"PING","requestId":2}"#,
        #"{"type":"PONG"}"#,
    ]

    // MARK: receiver

    static let receiverStatus = #"""
        {"type":"RECEIVER_STATUS","requestId":0,"status":{"applications":[{"appId":"CC1AD845","appType":"WEB","universalAppId":"CC1AD845","displayName":"Default Media Receiver","iconUrl":"","isIdleScreen":false,"launchedFromCloud":false,"namespaces":[{"name":"urn:x-cast:com.google.cast.cac"},{"name":"urn:x-cast:com.google.cast.debugoverlay"},{"name":"urn:x-cast:com.google.cast.media"}],"sessionId":"7E2FF513-CDF6-9A91-2B28-3E3DE7BAC174","statusText":"Ready To Cast","transportId":"7E2FF513-CDF6-9A91-2B28-3E3DE7BAC174"}],"isActiveInput":true,"isStandBy":false,"userEq":{},"volume":{"controlType":"attenuation","level":1.0,"muted":false,"stepInterval":0.05}}}
        """#

    static let receiver: [String] = [
        #"{"type":"GET_STATUS","requestId":1}"#,
        // pychromecast
        #"{"type":"LAUNCH","appId":"CC1AD845","requestId":3}"#,
        // Chromium
        #"{"type":"LAUNCH","requestId":17,"appId":"1A2B3C4D","language":"en-US","supportedAppTypes":["WEB"]}"#,
        // Cast Connect from an Android sender
        #"{"type":"LAUNCH","requestId":18,"appId":"ABCD1234","senderDeviceName":"Pixel 8","language":"en-US","supportedAppTypes":["WEB","ANDROID_TV"],"appParams":{"launchCheckerParams":{"credentialsData":{"credentials":"user-token","credentialsType":"android"}}}}"#,
        #"{"type":"STOP","requestId":9,"sessionId":"7E2FF513-CDF6-9A91-2B28-3E3DE7BAC174"}"#,
        #"{"type":"SET_VOLUME","volume":{"level":0.35},"requestId":10}"#,
        #"{"type":"SET_VOLUME","volume":{"muted":true},"requestId":11}"#,
        #"{"type":"SET_VOLUME","requestId":12,"volume":{"level":0.5},"expectedVolume":{"level":0.4,"muted":false}}"#,
        #"{"type":"GET_APP_AVAILABILITY","requestId":13,"appId":["CC1AD845","233637DE"]}"#,
        #"{"responseType":"GET_APP_AVAILABILITY","requestId":13,"availability":{"CC1AD845":"APP_AVAILABLE","233637DE":"APP_UNAVAILABLE"}}"#,
        receiverStatus,
        // An audio device at the idle screen: no HDMI-CEC state, fixed volume
        #"{"type":"RECEIVER_STATUS","requestId":1,"status":{"applications":[{"appId":"E8C28D3C","displayName":"Backdrop","iconUrl":"","isIdleScreen":true,"launchedFromCloud":false,"namespaces":[{"name":"urn:x-cast:com.google.cast.sse"}],"sessionId":"A0B1C2D3-0000-1111-2222-333344445555","statusText":"","transportId":"A0B1C2D3-0000-1111-2222-333344445555"}],"userEq":{"high_shelf":{"frequency":4500.0,"gain_db":0.0,"quality":0.707},"max_peaking_eqs":0,"peaking_eqs":[]},"volume":{"controlType":"fixed","level":1.0,"muted":false,"stepInterval":0.01}}}"#,
        // Cast Connect: the Android TV app runs for the requested Cast app id
        #"{"type":"RECEIVER_STATUS","requestId":18,"status":{"applications":[{"appId":"2C6A6E3D","appType":"ANDROID_TV","universalAppId":"233637DE","displayName":"YouTube","namespaces":[{"name":"urn:x-cast:com.google.cast.media"}],"sessionId":"s-1","transportId":"web-5"}],"volume":{"level":0.2,"muted":false}}}"#,
        #"{"type":"LAUNCH_ERROR","requestId":3,"reason":"NOT_FOUND"}"#,
        #"{"type":"LAUNCH_ERROR","requestId":4,"reason":"NOT_ALLOWED","extendedError":"USER_NOT_ALLOWED"}"#,
        #"{"type":"LAUNCH_STATUS","launchRequestId":5,"status":"USER_PENDING_AUTHORIZATION"}"#,
        #"{"type":"INVALID_REQUEST","requestId":6,"reason":"INVALID_SESSION_ID"}"#,
    ]

    // MARK: media

    static let pychromecastLoad = #"""
        {"media":{"contentId":"http://127.0.0.1:8000/video.mp4","streamType":"BUFFERED","contentType":"video/mp4","metadata":{"title":"Sintel","thumb":"http://127.0.0.1:8000/sintel.jpg","images":[{"url":"http://127.0.0.1:8000/sintel.jpg"}],"metadataType":0},"tracks":[{"trackId":1,"trackContentId":"http://127.0.0.1:8000/sintel-en.vtt","language":"en-US","subtype":"SUBTITLES","type":"TEXT","trackContentType":"text/vtt","name":"en-US - 1 Subtitle"}],"textTrackStyle":{"backgroundColor":"#FFFFFF00","edgeType":"OUTLINE","edgeColor":"#000000FF"}},"type":"LOAD","currentTime":0,"autoplay":true,"customData":{},"activeTrackIds":[1],"requestId":4,"sessionId":"7E2FF513-CDF6-9A91-2B28-3E3DE7BAC174"}
        """#

    static let cafLoad = #"""
        {"type":"LOAD","requestId":21,"sessionId":"s-1","media":{"contentId":"bbb","contentUrl":"https://example.com/bbb/master.m3u8","entity":"https://example.com/watch/bbb","atvEntity":"example://watch/bbb","streamType":"LIVE","contentType":"application/x-mpegURL","hlsSegmentFormat":"ts_aac","hlsVideoSegmentFormat":"fmp4","startAbsoluteTime":1700000000.5,"metadata":{"metadataType":2,"title":"Pilot","seriesTitle":"The Show","season":1,"episode":1,"originalAirdate":"2020-01-01","images":[{"url":"https://example.com/show.jpg","width":1280,"height":720}]},"vmapAdsRequest":{"adTagUrl":"https://example.com/vmap.xml"},"textTrackStyle":{"fontScale":1.5,"foregroundColor":"#FFFFFFFF","backgroundColor":"#000000CC","edgeType":"DROP_SHADOW","edgeColor":"#00000080","windowType":"ROUNDED_CORNERS","windowColor":"#20202080","windowRoundedCornerRadius":8,"fontFamily":"Droid Sans","fontGenericFamily":"SANS_SERIF","fontStyle":"BOLD_ITALIC","customData":{"theme":"dark"}},"customData":{"channel":7}},"queueData":{"id":"q-1","name":"Season 1","description":"All episodes","entity":"https://example.com/show/s1","queueType":"TV_SERIES","repeatMode":"REPEAT_ALL","startIndex":0,"startTime":0,"shuffle":false,"containerMetadata":{"containerType":"GENERIC_CONTAINER","title":"Season 1","containerDuration":7200,"containerImages":[{"url":"https://example.com/s1.jpg"}],"sections":[{"metadataType":2,"title":"Pilot","sectionDuration":3600,"sectionStartTimeInContainer":0}]},"items":[{"media":{"contentId":"ep1","streamType":"BUFFERED","contentType":"video/mp4","duration":3600},"autoplay":true,"preloadTime":10,"playbackDuration":3000,"startTime":5,"activeTrackIds":[],"customData":{"n":1}}]},"autoplay":false,"currentTime":12.5,"playbackRate":1.25,"activeTrackIds":[2,3],"credentials":"token-123","credentialsType":"ios","atvCredentials":"atv-token","atvCredentialsType":"android","customData":{"origin":"test"}}
        """#

    static let idleStatus = #"""
        {"type":"MEDIA_STATUS","requestId":0,"status":[{"mediaSessionId":3,"playbackRate":1,"playerState":"IDLE","idleReason":"FINISHED","currentTime":0,"supportedMediaCommands":274447,"volume":{"level":1,"muted":false},"extendedStatus":{"playerState":"LOADING","mediaSessionId":4,"media":{"contentId":"next.mp4","streamType":"BUFFERED","contentType":"video/mp4"}},"loadingItemId":5,"preloadedItemId":6,"sequenceNumber":12}]}
        """#

    static let liveStatus = #"""
        {"type":"MEDIA_STATUS","requestId":22,"status":[{"mediaSessionId":9,"media":{"contentId":"live","streamType":"LIVE","contentType":"application/x-mpegURL"},"playbackRate":1,"playerState":"BUFFERING","currentTime":3601.2,"supportedMediaCommands":12303,"volume":{"level":0.6,"muted":true},"activeTrackIds":[],"repeatMode":"REPEAT_SINGLE","liveSeekableRange":{"start":0,"end":3605.5,"isMovingWindow":true,"isLiveDone":false},"videoInfo":{"width":1920,"height":1080,"hdrType":"hdr"},"queueData":{"id":"q-9","queueType":"LIVE_TV","repeatMode":"REPEAT_SINGLE"},"customData":{"drm":"none"}}]}
        """#

    static let media: [String] = [
        pychromecastLoad,
        cafLoad,
        #"{"type":"PLAY","mediaSessionId":1,"requestId":5,"sessionId":"s-1"}"#,
        #"{"type":"PAUSE","mediaSessionId":1,"requestId":6,"customData":{"reason":"user"}}"#,
        #"{"type":"STOP","mediaSessionId":1,"requestId":7}"#,
        #"{"type":"SKIP_AD","mediaSessionId":1,"requestId":8}"#,
        #"{"type":"QUEUE_NEXT","mediaSessionId":1,"requestId":9}"#,
        #"{"type":"QUEUE_PREV","mediaSessionId":1,"requestId":10}"#,
        #"{"type":"QUEUE_GET_ITEM_IDS","mediaSessionId":1,"requestId":11}"#,
        #"{"type":"GET_STATUS","requestId":12}"#,
        #"{"type":"GET_STATUS","mediaSessionId":1,"requestId":13,"sessionId":"s-1"}"#,
        // pychromecast seek
        #"{"type":"SEEK","mediaSessionId":1,"currentTime":95.5,"resumeState":"PLAYBACK_START","requestId":14}"#,
        #"{"type":"SEEK","mediaSessionId":1,"relativeTime":-30,"resumeState":"PLAYBACK_PAUSE","requestId":15,"customData":{}}"#,
        #"{"type":"SET_PLAYBACK_RATE","mediaSessionId":1,"playbackRate":2,"requestId":16}"#,
        #"{"type":"SET_PLAYBACK_RATE","mediaSessionId":1,"relativePlaybackRate":0.5,"requestId":17}"#,
        #"{"type":"SET_VOLUME","mediaSessionId":1,"volume":{"level":0.25},"requestId":18}"#,
        #"{"type":"EDIT_TRACKS_INFO","mediaSessionId":1,"activeTrackIds":[],"requestId":19}"#,
        #"{"type":"EDIT_TRACKS_INFO","mediaSessionId":1,"requestId":20,"activeTrackIds":[1,2],"language":"fr-FR","isSuggestedLanguage":true,"enableTextTracks":true,"textTrackStyle":{"fontScale":0.8,"windowType":"NONE","edgeType":"NONE"}}"#,
        #"{"type":"QUEUE_LOAD","requestId":21,"items":[{"media":{"contentId":"a.mp4","streamType":"BUFFERED","contentType":"video/mp4"},"autoplay":true,"startTime":0,"preloadTime":20},{"media":{"contentId":"b.mp4","streamType":"BUFFERED","contentType":"video/mp4"}}],"startIndex":1,"repeatMode":"REPEAT_ALL_AND_SHUFFLE","currentTime":3,"sequenceNumber":0}"#,
        // pychromecast enqueue
        #"{"type":"QUEUE_INSERT","mediaSessionId":1,"items":[{"media":{"contentId":"c.mp4","streamType":"BUFFERED","contentType":"video/mp4","metadata":{"metadataType":0}},"autoplay":true,"startTime":0,"preloadTime":0}],"requestId":22}"#,
        #"{"type":"QUEUE_INSERT","mediaSessionId":1,"requestId":23,"items":[{"media":{"contentId":"d.mp4"}}],"insertBefore":3,"currentItemIndex":0,"currentTime":10,"sequenceNumber":4}"#,
        #"{"type":"QUEUE_REMOVE","mediaSessionId":1,"requestId":24,"itemIds":[2,3],"currentItemId":4,"currentTime":0,"sequenceNumber":5}"#,
        #"{"type":"QUEUE_REORDER","mediaSessionId":1,"requestId":25,"itemIds":[4,2],"insertBefore":1,"sequenceNumber":6}"#,
        // pychromecast next
        #"{"type":"QUEUE_UPDATE","jump":1,"mediaSessionId":1,"requestId":26}"#,
        #"{"type":"QUEUE_UPDATE","mediaSessionId":1,"requestId":27,"currentItemId":3,"repeatMode":"REPEAT_OFF","shuffle":true,"currentTime":60,"items":[{"itemId":3,"autoplay":false}],"customData":{"k":"v"},"sequenceNumber":7}"#,
        #"{"type":"QUEUE_GET_ITEMS","mediaSessionId":1,"requestId":28,"itemIds":[1,2,3]}"#,
        #"{"type":"QUEUE_GET_ITEM_RANGE","mediaSessionId":1,"requestId":29,"itemId":2,"nextCount":5}"#,
        #"{"type":"USER_ACTION","mediaSessionId":1,"requestId":30,"userAction":"LIKE","clear":false}"#,
        mediaStatusFixture,
        #"{"type":"MEDIA_STATUS","requestId":0,"status":[]}"#,
        idleStatus,
        liveStatus,
        // pychromecast reads itemID and detailedErrorCode
        #"{"type":"LOAD_FAILED","requestId":4,"itemId":1,"detailedErrorCode":104,"reason":"GENERIC_LOAD_ERROR","customData":{"http":404}}"#,
        #"{"type":"LOAD_CANCELLED","requestId":4,"itemId":1}"#,
        #"{"type":"INVALID_PLAYER_STATE","requestId":6}"#,
        #"{"type":"INVALID_REQUEST","requestId":31,"reason":"INVALID_MEDIA_SESSION_ID"}"#,
        #"{"type":"ERROR","requestId":32,"detailedErrorCode":311,"reason":"APP_ERROR","itemId":2}"#,
        #"{"type":"QUEUE_ITEM_IDS","requestId":11,"itemIds":[1,2,3],"sequenceNumber":3}"#,
        #"{"type":"QUEUE_ITEMS","requestId":28,"items":[{"itemId":1,"media":{"contentId":"a.mp4","streamType":"BUFFERED","contentType":"video/mp4","duration":60},"autoplay":true},{"itemId":2}],"sequenceNumber":3}"#,
        #"{"type":"QUEUE_CHANGE","requestId":0,"changeType":"INSERT","itemIds":[7,8],"insertBefore":3,"sequenceNumber":8}"#,
        #"{"type":"QUEUE_CHANGE","changeType":"UPDATE","itemIds":[2,1],"reorderItemIds":[2,1],"sequenceNumber":9}"#,
        #"{"type":"QUEUE_CHANGE","requestId":24,"changeType":"REMOVE","itemIds":[2,3],"sequenceNumber":5}"#,
    ]
}
