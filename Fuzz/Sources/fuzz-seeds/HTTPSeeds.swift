/// Requests a sender, a browser or curl sends to a Cast device's setup endpoint.
enum HTTPSeeds {
    static func seeds() -> SeedSet {
        var set = SeedSet(target: "http")
        let requests: [(String, String)] = [
            (
                "eureka-info",
                "GET /setup/eureka_info?params=name,device_info HTTP/1.1\r\nHost: 127.0.0.1:8008\r\n"
                    + "User-Agent: python-requests/2.31\r\nAccept: */*\r\nConnection: keep-alive\r\n\r\n"
            ),
            ("icon", "GET /setup/icon.png HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n"),
            ("range", "GET /media/v.mp4 HTTP/1.1\r\nHost: 127.0.0.1\r\nRange: bytes=100-199\r\n\r\n"),
            (
                "post-body",
                "POST /setup/set_eureka_info HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 17\r\n\r\n{\"name\":\"Room\"}\r\n"
            ),
            (
                "pipelined",
                "GET /a HTTP/1.1\r\nHost: x\r\n\r\nHEAD /b HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "OPTIONS * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
            ),
            ("bare-lf", "GET / HTTP/1.1\nHost: x\n\n"),
            ("chunked", "POST /x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"),
            ("partial", "GET /setup/eureka_info HTTP/1.1\r\nHost: 127.0"),
            ("bad-length", "POST / HTTP/1.1\r\nContent-Length: 1, 2\r\n\r\nab"),
            ("http2-preface", "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"),
        ]
        for (name, text) in requests {
            set.add(name, text)
        }
        return set
    }
}
