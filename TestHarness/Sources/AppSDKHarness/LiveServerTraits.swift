public import Testing

extension Trait where Self == ConditionTrait {
    /// Runs the test only against a live server (``LiveServerEnvironment/serverURL``), and
    /// says why it is skipped otherwise.
    public static var liveServer: Self {
        .enabled(if: LiveServerEnvironment.serverURL != nil,
                 "APP_SERVER_URL is not set: this test needs a live server (scripts/test starts one)")
    }

    /// Runs the test only when an admin account on the live server is known.
    public static var adminAccount: Self {
        .enabled(if: LiveServerEnvironment.hasAdmin,
                 "APP_SERVER_URL, APP_ADMIN_EMAIL or APP_ADMIN_PASSWORD is not set: this test needs an admin account")
    }

    /// Runs the test only against the reference server in test mode (``TestModeClient``).
    public static var testMode: Self {
        .enabled(if: LiveServerEnvironment.serverURL != nil && LiveServerEnvironment.hasTestMode,
                 "APP_SERVER_URL is not set or APP_SERVER_TEST_MODE is not 1: this test needs the reference server's test mode")
    }
}
