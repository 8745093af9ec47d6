public import Foundation

/// What the device flow hands the front end to show (RFC 8628 §3.2): the code the user
/// types and where. The device code itself stays inside and is never shown or printed.
///
/// ```swift
/// .device(provider, scopes: ["openid"]) { authorization in
///     print("Open \(authorization.verificationURI) and enter \(authorization.userCode)")
/// }
/// ```
public struct DeviceAuthorization: Sendable {
    /// `user_code`: what the user enters at ``verificationURI``.
    public let userCode: String
    /// `verification_uri`: where the user goes, on any device.
    public let verificationURI: URL
    /// `verification_uri_complete`: the same page with the code filled in (for a QR code, say),
    /// when the server gives one.
    public let verificationURIComplete: URL?
    /// `expires_in`: seconds until the codes expire (bounded to 1 s … 24 h; 30 min when the server does not say).
    public let expiresIn: TimeInterval
    /// `interval`: seconds between two polls of the token endpoint (bounded to 1 … 300 s;
    /// 5 s when the server does not say, RFC 8628 §3.2).
    public let interval: TimeInterval
    /// `device_code`: the secret the token endpoint is polled with.
    let deviceCode: String

    init(userCode: String, verificationURI: URL, verificationURIComplete: URL?, expiresIn: TimeInterval,
         interval: TimeInterval, deviceCode: String) {
        self.userCode = userCode
        self.verificationURI = verificationURI
        self.verificationURIComplete = verificationURIComplete
        self.expiresIn = expiresIn
        self.interval = interval
        self.deviceCode = deviceCode
    }
}

extension DeviceAuthorization: CustomStringConvertible, CustomReflectable {
    /// `DeviceAuthorization(WDJB-MJHT at https://…/device, expiresIn: 1800, interval: 5)`; never the device code.
    public var description: String {
        "DeviceAuthorization(\(userCode) at \(verificationURI.absoluteString), expiresIn: \(Int(expiresIn)), interval: \(Int(interval)))"
    }
    /// A mirror without the device code.
    public var customMirror: Mirror {
        Mirror(self, children: ["userCode": userCode, "verificationURI": verificationURI,
                                "verificationURIComplete": verificationURIComplete as Any,
                                "expiresIn": expiresIn, "interval": interval])
    }
}
