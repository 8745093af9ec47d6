/// `{"content": …}`: the request body of a new answer (``AnswerAPI``) and a new comment
/// (``CommentAPI``).
struct ContentBody: Encodable, Sendable {
    let content: String
}
