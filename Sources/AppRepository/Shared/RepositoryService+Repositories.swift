public import SessionEngine

extension RepositoryService {
    /// The signed-in member's account.
    public var members: MemberRepository { MemberRepository(service: self) }
    /// Questions of the day.
    public var questions: QuestionRepository { QuestionRepository(service: self) }
    /// Answers.
    public var answers: AnswerRepository { AnswerRepository(service: self) }
    /// Posts.
    public var posts: PostRepository { PostRepository(service: self) }
    /// Comments.
    public var comments: CommentRepository { CommentRepository(service: self) }
    /// Reports.
    public var reports: ReportRepository { ReportRepository(service: self) }
    /// Admin tools.
    public var admin: AdminRepository { AdminRepository(service: self) }
}
