/// Every mode of the hostile-server kit.
extension HostileMode {
    /// Every mode, category by category.
    public static var all: [HostileMode] {
        bodies + statuses + headers + redirects + slowAndSilent + controlCharacters + echoedSecrets + absurdNumbers + tokens
            + verificationURIs + userinfo + discovery + revocation + api + dpop
    }
}
