package import CastNet
package import CastNetCore

extension VirtualDevice {
    /// Takes a sender's connection over `channel` instead of a TLS socket: a channel in memory,
    /// whose other end a test hands to the SDK. The connection gets the limits of the device's
    /// listener (``DeviceServerOptions/sendQueueLimit``, ``DeviceServerOptions/frameTimeout``)
    /// and runs on the device's clock; the device need not be started (it then has no TLS
    /// certificate, so a sender must not require device authentication).
    /// - Parameter channel: an active channel, with reading off and no handler; call on its
    ///   loop, or before that loop runs it.
    /// - Returns: the connection, as the device's listener would have accepted it.
    @discardableResult
    package func attach(_ channel: any ByteChannel) -> CastConnection {
        var configuration = CastConnectionConfiguration()
        configuration.sendQueueLimit = options.sendQueueLimit
        configuration.frameTimeout = options.frameTimeout
        let connection = CastConnection(channel: channel, configuration: configuration, clock: clock)
        adopt(connection)
        return connection
    }
}
