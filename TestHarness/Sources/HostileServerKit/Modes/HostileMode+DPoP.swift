import Foundation
import NetworkService
import SessionEngine

/// What a server controls in a DPoP exchange (RFC 9449), against a DPoP-bound session (an
/// EdDSA key, ``HostileScript/dpop``) at the token endpoint (sign-in and refresh) and at the
/// API: nonces a header cannot carry are neither kept nor sent, a nonce challenge is answered
/// once, a refused proof never ends a session, a bearer answer to a proof is refused, and no
/// proof follows a redirect. Every mode also checks ``HostileInvariant/provesPossessionRightly``.
extension HostileMode {
    typealias Place = HostileDPoPAnswers.Place

    static let dpop: [HostileMode] = nonceValues + nonceEdges + challengeLoops + nonceRequiredOnce + missingNonces + malformedChallenges
        + proofRefusals + dpopTokenTypes + noncesOnSuccess + dpopRedirects + echoingNonces

    /// The places a session's own requests are answered: its sign-in, its refresh, its calls.
    static let mainPlaces: [Place] = [.signIn, .refresh, .api]

    /// `DPoP-Nonce` values no header can carry back, each written as it is in a challenge that
    /// never ends: never sent, so the request is not sent again.
    static let unusableNonces: [(what: String, lines: [String])] = [
        ("empty", [""]),
        ("of 10 KiB", [String(repeating: "n", count: 10_240)]),
        ("holding a bare CR", ["Nv.cr\rX-Injected: 1"]),
        ("folded onto a second line", ["Nv.fold", " X-Injected: 1"]),
        ("holding a NUL", ["Nv.nul\u{0}tail"]),
        ("holding a DEL", ["Nv.del\u{7F}tail"]),
        ("holding an escape sequence that writes the clipboard", ["Nv.esc" + clipboardWrite]),
        ("holding non-ASCII", ["Nv.é-ü"]),
        ("quoted", [#""Nv.quoted""#]),
    ]

    static let nonceValues: [HostileMode] = mainPlaces.flatMap { place in
        unusableNonces.map { nonce in
            dpopMode(place, "a nonce challenge whose DPoP-Nonce is \(nonce.what)", .refused,
                     check: sentOnce(place)) { script in
                place.install({ _ in
                    let first = HostileDPoPAnswers.challenge(at: place, nonce: nonce.lines[0])
                    guard nonce.lines.count > 1, case let .raw(bytes) = first else { return first }
                    // A folded line: the continuation goes right after the nonce's line.
                    let text = String(decoding: bytes, as: UTF8.self)
                        .replacingOccurrences(of: "DPoP-Nonce: \(nonce.lines[0])\r\n", with: "DPoP-Nonce: \(nonce.lines[0])\r\n\(nonce.lines[1])\r\n")
                    return .raw(Data(text.utf8))
                }, in: &script)
            }
        } + [
            dpopMode(place, "a nonce challenge with the DPoP-Nonce header twice", .refused) { script in
                place.install({ _ in HostileDPoPAnswers.refusal(at: place, code: "use_dpop_nonce", nonces: ["Nv.twice-1", "Nv.twice-2"]) },
                              in: &script)
            },
        ]
    }

    /// A server that challenges every answer, each time with a new nonce: the request is sent
    /// once more, then fails with a typed error (``NetworkError/isDPoPNonceChallenge``); the
    /// session is kept.
    static let challengeLoops: [HostileMode] = [
        dpopMode(.signIn, "a new nonce challenge on every answer", .refused, check: { outcome in
            let sent = outcome.exchanges.filter { $0.route == .token }.count
            if sent != 2 { return "\(sent) token requests; a challenge loop gets exactly two" }
            return outcome.networkError?.isDPoPNonceChallenge == true ? nil : "the error is not a nonce challenge: \(errorName(outcome))"
        }) { script in
            Place.signIn.install({ HostileDPoPAnswers.challenge(at: .signIn, nonce: HostileDPoPAnswers.freshNonce($0)) }, in: &script)
        },
        dpopMode(.refresh, "a new nonce challenge on every answer", .refused, check: { outcome in
            outcome.records.contains { $0.event == .dpopNonceChallenge(attempt: 1) } ? nil
                : "no dpopNonceChallenge record: the challenge loop was not told apart"
        }) { script in
            Place.refresh.install({ HostileDPoPAnswers.challenge(at: .refresh, nonce: HostileDPoPAnswers.freshNonce($0)) }, in: &script)
        },
        dpopMode(.api, "a new nonce challenge on every answer", .refused, check: { outcome in
            let sent = outcome.exchanges.filter { $0.route == .api }.count
            if sent != 2 { return "\(sent) API requests; a challenge loop gets exactly two" }
            return noRefresh(outcome) ?? (outcome.networkError?.isDPoPNonceChallenge == true ? nil
                : "the error is not a nonce challenge: \(errorName(outcome))")
        }) { script in
            Place.api.install({ HostileDPoPAnswers.challenge(at: .api, nonce: HostileDPoPAnswers.freshNonce($0)) }, in: &script)
        },
        dpopMode(.deviceSignIn, "a new nonce challenge on every poll", .refused, check: { outcome in
            let sent = outcome.exchanges.filter { $0.route == .token }.count
            return sent == 2 ? nil : "\(sent) token requests; a challenge loop gets exactly two"
        }) { script in
            Place.deviceSignIn.install({ HostileDPoPAnswers.challenge(at: .deviceSignIn, nonce: HostileDPoPAnswers.freshNonce($0)) },
                                       in: &script)
        },
        dpopMode(.signOut, "a new nonce challenge on every answer", .refused, check: { outcome in
            let sent = outcome.exchanges.filter { $0.route == .revocation }.count
            return sent <= 4 ? nil : "\(sent) revocation requests for two tokens; each may be sent twice"
        }) { script in
            Place.signOut.install({ HostileDPoPAnswers.challenge(at: .signOut, nonce: HostileDPoPAnswers.freshNonce($0)) }, in: &script)
        },
    ]

    /// A well-behaved server that wants a nonce: the first proof is challenged, the retry with
    /// the nonce answered. Guards against over-refusing, at every place.
    static let nonceRequiredOnce: [HostileMode] = Place.allCases.map { place in
        dpopMode(place, "a nonce asked for once, then the answer", .succeeds, check: { outcome in
            let proofs = outcome.exchanges.filter { $0.route == place.route }.compactMap { HostileProof(of: $0.request) }
            return proofs.contains { $0.nonce == "Nw.once-1" } ? nil : "no \(place.route) request was sent with the nonce it was given"
        }) { script in
            place.install({ context in
                context.proof.flatMap(HostileProof.init)?.nonce == "Nw.once-1" ? HostileDPoPAnswers.wellBehaved(at: place, context)
                    : HostileDPoPAnswers.challenge(at: place, nonce: "Nw.once-1")
            }, in: &script)
        }
    }

    /// Nonces at the length limit (2,048 bytes, RFC 9449 sets none): the longest is used, one
    /// byte more is not; and a challenge said in `WWW-Authenticate` alone at the token endpoint.
    static let nonceEdges: [HostileMode] = [
        dpopMode(.api, "a nonce challenge whose nonce is 2,048 bytes (the longest kept)", .succeeds) { script in
            let nonce = "Nw." + String(repeating: "k", count: 2_045)
            script.api = { context in
                context.proof.flatMap(HostileProof.init)?.nonce == nonce ? HostileAnswers.api(context)
                    : HostileDPoPAnswers.challenge(at: .api, nonce: nonce)
            }
        },
        dpopMode(.api, "a nonce challenge whose nonce is 2,049 bytes", .refused, check: sentOnce(.api)) { script in
            script.api = { _ in HostileDPoPAnswers.challenge(at: .api, nonce: "Nw." + String(repeating: "k", count: 2_046)) }
        },
    ] + [Place.signIn, .refresh].map { place in
        dpopMode(place, "a nonce challenge said only in WWW-Authenticate (401, no error code in the body)", .succeeds) { script in
            place.install({ context in
                context.proof.flatMap(HostileProof.init)?.nonce == "Nw.header-1" ? HostileDPoPAnswers.wellBehaved(at: place, context)
                    : HostileDPoPAnswers.apiChallenge(#"DPoP error="use_dpop_nonce""#, nonce: "Nw.header-1")
            }, in: &script)
        }
    }

    /// `use_dpop_nonce` without a `DPoP-Nonce`: nothing new to prove with, so nothing is sent again.
    static let missingNonces: [HostileMode] = mainPlaces.map { place in
        dpopMode(place, "use_dpop_nonce without a DPoP-Nonce header", .refused, check: sentOnce(place)) { script in
            place.install({ _ in HostileDPoPAnswers.challenge(at: place, nonce: nil) }, in: &script)
        }
    }

    /// Malformed `WWW-Authenticate: DPoP` challenges (each with a usable new nonce, and a body
    /// naming no error code): read without a crash, answered at most once, the session kept.
    static let malformedChallenges: [HostileMode] = [
        ("no error", "DPoP"),
        ("an unknown error", #"DPoP error="no_such_error""#),
        ("an error of 10 KiB", #"DPoP error=""# + String(repeating: "x", count: 10_240) + #"""#),
        ("garbled parameters", #"DPoP ,,, error==use_dpop_nonce", realm="\"#),
        ("2,000 parameters", "DPoP " + Array(repeating: "a=b", count: 2_000).joined(separator: ", ")),
        ("two DPoP challenges in one header", #"DPoP error="use_dpop_nonce", DPoP error="invalid_token""#),
        ("Bearer and DPoP in one header", #"Bearer error="invalid_token", DPoP error="use_dpop_nonce""#),
        ("a Bearer header and a DPoP header", "Bearer error=\"invalid_token\"\nDPoP error=\"use_dpop_nonce\""),
    ].map { what, header in
        dpopMode(.api, "a WWW-Authenticate challenge with \(what)", .either, session: .kept) { script in
            script.api = { context in HostileDPoPAnswers.apiChallenge(header, nonce: HostileDPoPAnswers.freshNonce(context)) }
        }
    }

    /// `invalid_dpop_proof`: transient at the token endpoint (never a sign-out), a proof
    /// failure at the API (no refresh).
    static let proofRefusals: [HostileMode] = [
        dpopMode(.signIn, "invalid_dpop_proof", .refused) { script in
            Place.signIn.install({ _ in HostileDPoPAnswers.refusal(at: .signIn, code: "invalid_dpop_proof") }, in: &script)
        },
        dpopMode(.refresh, "invalid_dpop_proof with 400", .refused, check: proofRefusedRecorded) { script in
            Place.refresh.install({ _ in HostileDPoPAnswers.refusal(at: .refresh, code: "invalid_dpop_proof") }, in: &script)
        },
        dpopMode(.refresh, "invalid_dpop_proof with 403 (as glewlwyd answers)", .refused, check: proofRefusedRecorded) { script in
            Place.refresh.install({ _ in HostileDPoPAnswers.refusal(at: .refresh, code: "invalid_dpop_proof", status: 403) }, in: &script)
        },
        dpopMode(.refresh, "invalid_dpop_proof with 401 and a DPoP challenge", .refused, check: proofRefusedRecorded) { script in
            Place.refresh.install({ _ in
                HostileDPoPAnswers.refusal(at: .refresh, code: "invalid_dpop_proof", status: 401,
                                           authenticate: #"DPoP error="invalid_dpop_proof""#)
            }, in: &script)
        },
        dpopMode(.api, "invalid_dpop_proof", .refused, check: noRefresh) { script in
            Place.api.install({ _ in HostileDPoPAnswers.refusal(at: .api, code: "invalid_dpop_proof") }, in: &script)
        },
        dpopMode(.api, "a DPoP challenge saying invalid_token (a token failure: one refresh, then the call again)", .either) { script in
            script.api = { context in
                HostileDPoPAnswers.refusal(at: .api, code: "invalid_token", authenticate: #"DPoP error="invalid_token""#)
            }
        },
        dpopMode(.signOut, "invalid_dpop_proof", .refused) { script in
            Place.signOut.install({ _ in HostileDPoPAnswers.refusal(at: .signOut, code: "invalid_dpop_proof") }, in: &script)
        },
    ]

    /// `token_type` in the answer to a proof: a bearer token is refused (the default
    /// ``DPoPConfiguration/BearerAnswer/refuse``), `DPoP` in any case is taken, anything a
    /// header cannot carry is refused.
    static let dpopTokenTypes: [HostileMode] = [
        dpopTokenType("Bearer", .signIn, .refused, value: "Bearer"),
        dpopTokenType("dpop, in lower case", .signIn, .succeeds, value: "dpop"),
        dpopTokenType("\"DPoP \" with spaces", .signIn, .either, value: "DPoP  "),
        dpopTokenType("absent", .signIn, .either, value: nil),
        dpopTokenType("of 1 MB", .signIn, .refused, value: "DPoP" + String(repeating: "P", count: 1_000_000)),
        dpopTokenType("holding a line feed", .signIn, .refused, value: "DPoP\nX-Injected: 1"),
        dpopTokenType("holding an escape sequence", .signIn, .refused, value: "DPoP" + clearScreen),
        dpopTokenType("holding a NUL", .signIn, .refused, value: "DPoP\u{0}"),
        dpopTokenType("Bearer", .refresh, .refused, value: "Bearer", session: .ended(.dpopNotHonoured)),
        dpopTokenType("dpop, in lower case", .refresh, .succeeds, value: "dpop"),
        dpopTokenType("of 1 MB", .refresh, .refused, value: "DPoP" + String(repeating: "P", count: 1_000_000), session: .notReplaced),
    ]

    /// A `DPoP-Nonce` on a 200 that no header can carry: the answer is used, the nonce is not
    /// kept (the next proof to that origin, the API call's, does not carry it).
    static let noncesOnSuccess: [HostileMode] = [
        ("of 10 KiB", String(repeating: "n", count: 10_240), Result.succeeds),
        ("holding an escape sequence", "Nv.esc" + clipboardWrite, .either),
        ("holding a bare CR", "Nv.cr\rX-Injected: 1", .either),
        ("holding non-ASCII", "Nv.é", .succeeds),
    ].flatMap { what, nonce, result in
        [Place.signIn, .refresh].map { place in
            dpopMode(place, "a 200 whose DPoP-Nonce is \(what)", result) { script in
                place.install({ context in HostileDPoPAnswers.success(at: place, context, nonce: nonce) }, in: &script)
            }
        }
    }

    /// Redirects of a request carrying a proof: refused, since the proof names one URL (its
    /// `htu`); nothing reaches the other origin, or another path of the same one.
    static let dpopRedirects: [HostileMode] = [
        dpopMode(.signIn, "307 to another origin (the proof would follow)", .refused) { $0.token = toTheOtherOrigin(307) },
        dpopMode(.refresh, "308 to another origin (the proof and the refresh token would follow)", .refused) { script in
            Place.refresh.install(toTheOtherOrigin(308), in: &script)
        },
        dpopMode(.api, "307 to another origin (the proof and the DPoP token would follow)", .refused, session: .kept) { script in
            script.api = toTheOtherOrigin(307)
        },
        dpopMode(.signOut, "307 to another origin (the proof and the tokens would follow)", .refused) { script in
            Place.signOut.install(toTheOtherOrigin(307), in: &script)
        },
        dpopMode(.signIn, "307 to another path of the same origin (the proof names the first)", .refused, check: { outcome in
            outcome.exchanges.contains { $0.route == .other } ? "the request followed the redirect with a proof naming another URL" : nil
        }) { script in
            Place.signIn.install({ context in .respond(status: 307, headers: ["Location": context.endpoint("elsewhere/token")]) }, in: &script)
        },
    ]

    /// Nonces that echo a secret: the SDK sends them back only in a proof to the server that
    /// gave them, and shows them nowhere. Refusals that echo the proof and the token show neither.
    static let echoingNonces: [HostileMode] = [
        dpopMode(.api, "a 401 whose DPoP challenge and body echo the proof and the Authorization header", .refused) { script in
            script.api = { context in
                let said = (context.proof ?? "") + " " + (context.request.header("Authorization") ?? "")
                return HostileAnswers.raw("HTTP/1.1 401 Unauthorized", headerLines: [
                    "Content-Type: application/json",
                    #"WWW-Authenticate: DPoP error="invalid_dpop_proof", error_description="bad \#(said)""#,
                ], body: HostileAnswers.json(["error": "invalid_dpop_proof", "error_description": "bad " + said]))
            }
        },
        dpopMode(.refresh, "an invalid_dpop_proof whose description echoes the proof and the refresh token", .refused) { script in
            Place.refresh.install({ context in
                HostileAnswers.oauthError(400, "invalid_dpop_proof", "bad " + (context.proof ?? "") + " for " + (context.form["refresh_token"] ?? ""))
            }, in: &script)
        },
        dpopMode(.api, "a nonce challenge whose nonce is the access token", .either, session: .kept) { script in
            script.api = { context in
                context.proof.flatMap(HostileProof.init)?.nonce == nil
                    ? HostileDPoPAnswers.challenge(at: .api, nonce: context.accessToken) : HostileAnswers.api(context)
            }
        },
        dpopMode(.signIn, "a 200 whose DPoP-Nonce is the access token it issues", .succeeds) { script in
            Place.signIn.install({ context in HostileDPoPAnswers.success(at: .signIn, context, nonce: HostileSecrets.accessToken) },
                                 in: &script)
        },
        dpopMode(.refresh, "a nonce challenge whose nonce is the refresh token it was sent", .either) { script in
            Place.refresh.install({ context in
                context.proof.flatMap(HostileProof.init)?.nonce == context.form["refresh_token"]
                    ? HostileAnswers.token(context) : HostileDPoPAnswers.challenge(at: .refresh, nonce: context.form["refresh_token"])
            }, in: &script)
        },
    ]

    // MARK: Building modes

    /// A mode against a DPoP-bound session at `place`. By default the session is what the
    /// operation says for a sign-in, a refresh (a failed one keeps the session) or a sign-out
    /// (it ends locally), and kept for an API call.
    static func dpopMode(_ place: Place, _ what: String, _ result: Result, session: Session? = nil,
                         check: (@Sendable (HostileOutcome) -> String?)? = nil,
                         script: (inout HostileScript) -> Void) -> HostileMode {
        HostileMode("DPoP, \(place): \(what)", .dpop, attacks: place.operation, expecting: result,
                    session: session ?? (place == .api ? .kept : .byOperation), check: check) { hostile in
            hostile.dpop = true
            script(&hostile)
        }
    }

    /// A mode whose answer to a proof at `place` has `token_type` `value` (none when `nil`).
    static func dpopTokenType(_ what: String, _ place: Place, _ result: Result, value: String?,
                              session: Session? = nil) -> HostileMode {
        dpopMode(place, "token_type \(what) in answer to a proof", result, session: session) { script in
            place.install({ context in
                var fields = HostileAnswers.tokenFields(context)
                fields["token_type"] = value
                return HostileAnswers.ok(HostileAnswers.json(fields))
            }, in: &script)
        }
    }

    /// Whether the attacked request was sent once (once per refresh attempt): nothing new to
    /// prove with, nothing sent again.
    static func sentOnce(_ place: Place) -> @Sendable (HostileOutcome) -> String? {
        { outcome in
            let route = place.route
            let sent = outcome.exchanges.filter { $0.route == route }.count
            let attempts = place == .refresh ? max(outcome.refreshAttempts, 1) : 1
            if sent > attempts { return "\(sent) \(route) requests for \(attempts) attempt(s): sent again with no nonce it could carry" }
            return place == .api ? noRefresh(outcome) : nil
        }
    }

    /// Whether the API's proof failure was taken for a token failure (a refresh).
    static let noRefresh: @Sendable (HostileOutcome) -> String? = { outcome in
        let refreshes = outcome.exchanges.filter { $0.route == .token }.count
        return refreshes == 0 ? nil : "the API's proof failure started \(refreshes) refresh request(s)"
    }

    /// Whether the refresh recorded the refused proof (`dpopProofRefused`).
    static let proofRefusedRecorded: @Sendable (HostileOutcome) -> String? = { outcome in
        outcome.records.contains { $0.event == .dpopProofRefused } ? nil : "no dpopProofRefused record"
    }

    static func errorName(_ outcome: HostileOutcome) -> String {
        outcome.error.map { "\(type(of: $0))" } ?? "none"
    }
}
