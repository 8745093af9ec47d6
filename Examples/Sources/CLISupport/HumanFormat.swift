public import AppRepository
import Foundation
import NetworkService

/// How results look without `--json`: one header line per item, its text indented below.
public protocol HumanReadable {
    /// The item as a person reads it.
    var humanText: String { get }
}

enum HumanDate {
    /// `2026-11-22 10:00:00 UTC`.
    static func format(_ date: Date) -> String {
        JSONCoding.format(date).replacingOccurrences(of: "T", with: " ").replacingOccurrences(of: "Z", with: " UTC")
    }
}

/// `text` (a server's: a post's or comment's content, a report's reason) on indented lines,
/// safe for a terminal (its line breaks kept, every other control escaped).
func indented(_ text: String) -> String {
    TerminalText.safe(text, keepingLineBreaks: true).split(separator: "\n", omittingEmptySubsequences: false).map { "    \($0)" }.joined(separator: "\n")
}

func plural(_ count: Int, _ word: String) -> String {
    "\(count) \(word)\(count == 1 ? "" : "s")"
}

extension Member: HumanReadable {
    public var humanText: String {
        """
        \(TerminalText.safe(nickname)) \(email.map { "<\(TerminalText.safe($0))>" } ?? "(anonymous)")
          role:   \(role)
          id:     \(id.uuidString.lowercased())
          joined: \(HumanDate.format(createdAt))
        """
    }
}

extension Author {
    /// The author's nickname, safe for a terminal.
    var label: String { TerminalText.safe(nickname) }
}

extension Question: HumanReadable {
    public var humanText: String {
        "#\(id) \(TerminalText.safe(content))\n    \(plural(answerCount, "answer"))\(isAnswered ? ", answered by you" : ""), \(HumanDate.format(createdAt))"
    }
}

extension Answer: HumanReadable {
    public var humanText: String {
        "#\(id) on question #\(questionId) by \(author.label)\(isMine ? " (you)" : ""), \(HumanDate.format(createdAt))\n" + indented(content)
    }
}

extension Post: HumanReadable {
    public var humanText: String {
        let by = author.map { $0.label } ?? "anonymous"
        let flags = [isLiked ? "liked by you" : nil, isMine ? "yours" : nil].compactMap { $0 }
        return "#\(id) by \(by), \(HumanDate.format(createdAt)) · \(plural(likeCount, "like")) · \(plural(commentCount, "comment"))"
            + (flags.isEmpty ? "" : " (\(flags.joined(separator: ", ")))") + "\n" + indented(content)
    }
}

extension Comment: HumanReadable {
    public var humanText: String {
        "#\(id) on post #\(postId) by \(author.label)\(isMine ? " (you)" : ""), \(HumanDate.format(createdAt))\n" + indented(content)
    }
}

extension Report: HumanReadable {
    public var humanText: String {
        "#\(id) \(targetType.rawValue) #\(targetId) reported by \(author.label), \(HumanDate.format(createdAt))\n" + indented(reason)
    }
}

extension LikeState: HumanReadable {
    public var humanText: String {
        "\(isLiked ? "liked" : "not liked") · \(plural(likeCount, "like"))"
    }
}

extension Page: HumanReadable where Item: HumanReadable {
    public var humanText: String {
        var lines = items.isEmpty ? ["(nothing here)"] : items.map(\.humanText)
        if hasNext, let nextThreshold {
            lines.append("more: --threshold \(nextThreshold)")
        }
        return lines.joined(separator: "\n")
    }
}

extension Output {
    /// Prints a DTO: JSON with `--json`, else its human text.
    public func show<Value: Encodable & HumanReadable>(_ value: Value) throws(CLIError) {
        try result(value) { value.humanText }
    }
}
