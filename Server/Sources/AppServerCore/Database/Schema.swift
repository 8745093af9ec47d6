import SQLiteNIO

/// The database schema and its migrations (tracked in `PRAGMA user_version`).
enum Schema {
    /// Each entry moves the schema from version `index` to `index + 1`.
    static let migrations: [[String]] = [
        [
            """
            CREATE TABLE members (
                id TEXT PRIMARY KEY,
                email TEXT UNIQUE,
                password_hash TEXT,
                nickname TEXT NOT NULL,
                role TEXT NOT NULL CHECK (role IN ('member', 'admin')),
                created_at INTEGER NOT NULL
            )
            """,
            """
            CREATE TABLE sessions (
                id TEXT PRIMARY KEY,
                member_id TEXT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
                created_at INTEGER NOT NULL,
                revoked_at INTEGER
            )
            """,
            "CREATE INDEX sessions_member ON sessions(member_id)",
            """
            CREATE TABLE refresh_tokens (
                token_hash TEXT PRIMARY KEY,
                session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
                issued_at INTEGER NOT NULL,
                expires_at INTEGER NOT NULL,
                used_at INTEGER
            )
            """,
            "CREATE INDEX refresh_tokens_session ON refresh_tokens(session_id)",
            """
            CREATE TABLE questions (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                content TEXT NOT NULL,
                created_at INTEGER NOT NULL
            )
            """,
            """
            CREATE TABLE answers (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                question_id INTEGER NOT NULL REFERENCES questions(id) ON DELETE CASCADE,
                author_id TEXT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
                content TEXT NOT NULL,
                created_at INTEGER NOT NULL
            )
            """,
            "CREATE INDEX answers_question ON answers(question_id, id)",
            "CREATE INDEX answers_author ON answers(author_id, id)",
            """
            CREATE TABLE posts (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                author_id TEXT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
                content TEXT NOT NULL,
                is_anonymous INTEGER NOT NULL,
                created_at INTEGER NOT NULL
            )
            """,
            "CREATE INDEX posts_author ON posts(author_id)",
            """
            CREATE TABLE comments (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                post_id INTEGER NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
                author_id TEXT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
                content TEXT NOT NULL,
                created_at INTEGER NOT NULL
            )
            """,
            "CREATE INDEX comments_post ON comments(post_id, id)",
            "CREATE INDEX comments_author ON comments(author_id)",
            """
            CREATE TABLE post_likes (
                post_id INTEGER NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
                member_id TEXT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
                PRIMARY KEY (post_id, member_id)
            )
            """,
            "CREATE INDEX post_likes_member ON post_likes(member_id)",
            """
            CREATE TABLE reports (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                reporter_id TEXT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
                target_type TEXT NOT NULL CHECK (target_type IN ('post', 'comment', 'answer')),
                target_id INTEGER NOT NULL,
                reason TEXT NOT NULL,
                created_at INTEGER NOT NULL
            )
            """,
            "CREATE INDEX reports_reporter ON reports(reporter_id)",
        ],
        // 2: the reuse grace period. `replaced_by` is the hash of the refresh token that the
        // latest use of this one issued (its child); `withdrawn_at` marks a child taken back
        // because its parent was presented again within the grace period (a lost response).
        // Rows of an older database get NULL in both: a used token without a known child is
        // never a retry, so it stays strict reuse.
        [
            "ALTER TABLE refresh_tokens ADD COLUMN replaced_by TEXT",
            "ALTER TABLE refresh_tokens ADD COLUMN withdrawn_at INTEGER",
        ],
        // 3: siblings. `parent_hash` is the hash of the token whose presentation issued this one:
        // a used token presented again within the grace period gets another child without
        // withdrawing the ones already issued, and the first child used withdraws its siblings,
        // found through this column. Existing children get it from their parent's `replaced_by`
        // (the child its latest presentation issued), so a token used before this migration may
        // still be presented again within its window; children the old rule withdrew stay
        // withdrawn, and a token used before migration 2 has no known child: strict reuse.
        [
            "ALTER TABLE refresh_tokens ADD COLUMN parent_hash TEXT",
            "CREATE INDEX refresh_tokens_parent ON refresh_tokens(parent_hash)",
            """
            UPDATE refresh_tokens AS child SET parent_hash = parent.token_hash
            FROM refresh_tokens AS parent WHERE parent.replaced_by = child.token_hash
            """,
        ],
        // 4: DPoP (RFC 9449). `jkt` is the JWK thumbprint (RFC 7638) of the key a family was
        // bound to at its sign-in; its refreshes need a proof by that key and its access tokens
        // carry it as `cnf.jkt`. NULL, as every family of an older database gets, is a bearer
        // family, which stays bearer until its member signs in again.
        [
            "ALTER TABLE sessions ADD COLUMN jkt TEXT",
        ],
    ]

    /// Applies the migrations the database has not seen yet, each in its own transaction.
    static func migrate(_ database: Database) async throws(DatabaseError) {
        for (index, statements) in migrations.enumerated() {
            do {
                try await database.transaction { transaction in
                    let current = try await transaction.query("PRAGMA user_version").first?.int("user_version") ?? 0
                    guard current == index else { return }
                    for statement in statements {
                        try await transaction.execute(statement)
                    }
                    // PRAGMA takes no bound parameters; the value is our own integer.
                    try await transaction.execute("PRAGMA user_version = \(index + 1)")
                }
            } catch let error as DatabaseError {
                throw error
            } catch {
                throw DatabaseError(operation: "migration \(index + 1)", underlying: error)
            }
        }
    }
}
