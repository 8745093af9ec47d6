import Foundation
import SQLiteNIO

/// The questions the server starts with.
enum QuestionSeed {
    /// A fixed list: today's question is picked from it by date.
    static let questions = [
        "What made you smile today?",
        "What is something you learned this week?",
        "Which small habit has made the biggest difference in your life?",
        "What is a place you would like to visit, and why?",
        "Who is someone you are grateful for right now?",
        "What is a book, film or song that changed how you think?",
        "What would you do with an extra hour every day?",
        "What is a skill you would like to learn this year?",
        "What does a perfect weekend look like to you?",
        "What advice would you give to yourself five years ago?",
    ]

    /// Inserts the questions when the table is empty (the first start).
    static func seedIfEmpty(_ database: Database, now: Date) async throws {
        try await database.transaction { transaction in
            let count = try await transaction.query("SELECT COUNT(*) AS n FROM questions").first?.int("n") ?? 0
            guard count == 0 else { return }
            let createdAt = Int(now.timeIntervalSince1970)
            for question in questions {
                try await transaction.execute(
                    "INSERT INTO questions (content, created_at) VALUES (?, ?)",
                    [.text(question), .int(createdAt)]
                )
            }
        }
    }
}
