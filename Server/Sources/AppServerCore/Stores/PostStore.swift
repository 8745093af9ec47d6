import Foundation
import SQLiteNIO

/// SQL for `posts` and `post_likes`.
enum PostStore {
    private static let select = """
        SELECT p.id, p.content, p.is_anonymous, p.created_at, p.author_id, m.nickname AS author_nickname,
               (SELECT COUNT(*) FROM post_likes l WHERE l.post_id = p.id) AS like_count,
               (SELECT COUNT(*) FROM comments c WHERE c.post_id = p.id) AS comment_count,
               EXISTS (SELECT 1 FROM post_likes l WHERE l.post_id = p.id AND l.member_id = ?) AS is_liked
        FROM posts p JOIN members m ON m.id = p.author_id
        """

    static func insert(authorID: UUID, content: String, isAnonymous: Bool, now: Date, in transaction: Transaction) async throws(DatabaseError) -> PostDTO {
        let row = try await transaction.query(
            "INSERT INTO posts (author_id, content, is_anonymous, created_at) VALUES (?, ?, ?, ?) RETURNING id",
            [.text(authorID.dbString), .text(content), .bool(isAnonymous), .int(Int(now.timeIntervalSince1970))]
        )
        let id = try row.first?.int("id") ?? 0
        guard let post = try await find(id: id, viewer: authorID, in: transaction) else {
            throw DatabaseError(operation: "insert post", underlying: ColumnError(column: "id"))
        }
        return post
    }

    static func find(id: Int, viewer: UUID, in transaction: Transaction) async throws(DatabaseError) -> PostDTO? {
        try await transaction.query(select + " WHERE p.id = ?", [.text(viewer.dbString), .int(id)]).first.map { row throws(DatabaseError) in
            try post(row, viewer: viewer)
        }
    }

    /// The author of a post, whether or not it is anonymous; `nil` when there is no such post.
    static func authorID(of id: Int, in transaction: Transaction) async throws(DatabaseError) -> UUID? {
        try await transaction.query("SELECT author_id FROM posts WHERE id = ?", [.int(id)]).first
            .flatMap { row throws(DatabaseError) in UUID(uuidString: try row.string("author_id")) }
    }

    /// A page of posts, newest first.
    static func page(_ request: PageRequest, viewer: UUID, in transaction: Transaction) async throws(DatabaseError) -> PageDTO<PostDTO> {
        let rows = try await transaction.query(
            select + " WHERE p.id < ? ORDER BY p.id DESC LIMIT ?",
            [.text(viewer.dbString), .int(request.upperBound), .int(request.pageSize + 1)]
        )
        return request.page(from: try rows.map { row throws(DatabaseError) in try post(row, viewer: viewer) })
    }

    static func delete(id: Int, in transaction: Transaction) async throws(DatabaseError) {
        try await transaction.execute("DELETE FROM posts WHERE id = ?", [.int(id)])
    }

    /// Likes the post when the member does not like it yet, unlikes it otherwise.
    static func toggleLike(postID: Int, memberID: UUID, in transaction: Transaction) async throws(DatabaseError) -> LikeStateDTO {
        let binds: [SQLiteData] = [.int(postID), .text(memberID.dbString)]
        try await transaction.execute("DELETE FROM post_likes WHERE post_id = ? AND member_id = ?", binds)
        let isLiked = try await transaction.changes() == 0
        if isLiked {
            try await transaction.execute("INSERT INTO post_likes (post_id, member_id) VALUES (?, ?)", binds)
        }
        let count = try await transaction.query("SELECT COUNT(*) AS n FROM post_likes WHERE post_id = ?", [.int(postID)])
            .first?.int("n") ?? 0
        return LikeStateDTO(likeCount: count, isLiked: isLiked)
    }

    private static func post(_ row: SQLiteRow, viewer: UUID) throws(DatabaseError) -> PostDTO {
        let author = try row.author("author")
        let isAnonymous = try row.bool("is_anonymous")
        return PostDTO(
            id: try row.int("id"), content: try row.string("content"), isAnonymous: isAnonymous,
            author: isAnonymous ? nil : author, isMine: author.id == viewer,
            likeCount: try row.int("like_count"), commentCount: try row.int("comment_count"),
            isLiked: try row.bool("is_liked"), createdAt: try row.date("created_at")
        )
    }
}
