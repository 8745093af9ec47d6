/*
 * The refresh protocol of SessionEngine, as a Promela model for spin.
 * docs/model/README.md maps every step to the Swift function that implements it, states the
 * properties and the bounds, and gives the counts spin reported; docs/model/check runs it.
 *
 * Three clients (tasks) in two OS processes share one token store and one server:
 *   process 0 runs clients 0 and 1 (single flight between them),
 *   process 1 runs client 2.
 * Each client makes OPS operations; each is a request (refresh ahead or on a 401, retried
 * once), or, within the budget MAXSIGN, a sign-out or a sign-in (as account 1 or 2).
 * The crasher kills a process at any step (its exclusive section is released, as flock and
 * PostgreSQL's advisory lock are when their holder dies); the server may fail transiently
 * (a 5xx before the token is read) and a response may be lost after the server rotated.
 *
 * Compile-time switches (spin -D...):
 *   GRACE=0|1      the server's reuse grace period (siblings) off or on
 *   MAXCRASH=n     process crashes
 *   MAXLOSS=n      lost refresh responses
 *   MAXFAIL=n      transient refresh failures (a 5xx)
 *   MAXSIGN=n      sign-outs and sign-ins
 *   MAXNONCE=n     DPoP nonce challenges at the token endpoint (RFC 9449 §8: a 400 use_dpop_nonce
 *                  with a new DPoP-Nonce, answered before the server's transaction)
 *   OPS=n          operations per client of process 0
 *   OPS1=n         operations of process 1's client (OPS unless set)
 *   NO_REREAD      variant: the refresh does not re-read the store inside the section
 *   NO_GENCHECK    variant: the refresh does not check the generation after the server answered
 *   NO_OVERTAKEN_SAVE  variant: a rotation a sign-out or sign-in overtook is not saved (finding F1)
 *   NO_ACCOUNT_CHECK   variant: a caller gets what the refresh it joined returned, whatever
 *                  the account (finding F2)
 *   NONCE_IS_FAILURE   variant: a nonce challenge the retry did not answer is a rejected refresh
 *                  (the 4xx rule: the store is cleared and the generation moves)
 *   NONCE_NO_RETRY     variant: a nonce challenge is not answered by one retry with the new nonce
 *   NONCE_AFTER_USE    variant: the server runs its refresh transaction (marks the token used),
 *                  then challenges for a nonce (a server that checks the nonce last)
 */

#ifndef GRACE
#define GRACE 1
#endif
#ifndef MAXCRASH
#define MAXCRASH 0
#endif
#ifndef MAXLOSS
#define MAXLOSS 0
#endif
#ifndef MAXFAIL
#define MAXFAIL 1
#endif
#ifndef MAXSIGN
#define MAXSIGN 1
#endif
#ifndef MAXNONCE
#define MAXNONCE 0
#endif
#ifndef OPS
#define OPS 1
#endif
#ifndef OPS1
#define OPS1 OPS
#endif

#define NPROC   2
#define NCLIENT 3
#define MAXTOK  12   /* token ids 1..MAXTOK-1; 0 is "none" (an empty store) */
#define MAXFAM  4    /* session families 1..MAXFAM-1 */
#define NSLOT   3    /* refresh slots per process, 1..NSLOT-1: at most two refreshes of one
                        process exist at once (one a sign-out or sign-in overtook, and the next) */

/* What the server answered a refresh with. */
#define S_ROTATED 1
#define S_REUSED  2  /* 401 refresh_token_reused (the family is revoked) */
#define S_INVALID 3  /* 401 invalid_refresh_token (revoked family) */
#define S_FAILED  4  /* a 5xx, or no answer at all (a lost response) */
#define S_OVERTAKEN 5 /* rotated, but a sign-out or sign-in here began meanwhile (the engine's mark) */
#define S_NONCE   6  /* 400 use_dpop_nonce with a new DPoP-Nonce: the proof lacked the current nonce */

/* What a refresh hands its callers. */
#define R_OK      1  /* credentials (the token in rtok) */
#define R_ENDED   2  /* SessionError.sessionEnded */
#define R_CHANGED 3  /* SessionError.sessionChanged */
#define R_FAILED  4  /* SessionError.refreshFailed (transient) */

/* ---- the server (Server/Sources/AppServerCore/Auth/AuthService.swift) ----
 * A token is a refresh token and the access token issued with it. */
byte tfam[MAXTOK];     /* its session family */
byte tparent[MAXTOK];  /* the token whose presentation issued it */
bool tused[MAXTOK];    /* used_at set */
bool twd[MAXTOK];      /* withdrawn_at set */
byte facct[MAXFAM];    /* the family's account */
bool frev[MAXFAM];     /* the family is revoked */
byte ntok = 2;         /* next token id; token 1 is family 1's, account 1's */
byte nfam = 2;

/* ---- the token store: the credentials' token, and its exclusive section ---- */
byte stok = 1;
byte lock = 0;         /* 0: free, else the holding process + 1 */

/* ---- each process's SessionState ---- */
bool alive[NPROC];
byte gen[NPROC];                 /* generation */
byte inflight[NPROC];            /* the refresh in flight (its slot), or 0 */
bool busy[NPROC * NSLOT];        /* a slot's refresh runs, or a joiner has not read its result */
bool joiner[NPROC * NSLOT];      /* a caller waits for that refresh (there are at most two callers per process) */
byte rres[NPROC * NSLOT];        /* its result for the joiner (0 until it finished) */
byte rtok[NPROC * NSLOT];        /* its credentials, for R_OK */

/* ---- fault budgets ---- */
byte crashes, losses, fails, signs, nonces;

/* ---- ghosts: what the properties watch ---- */
byte done;                  /* clients that finished (or died with their process) */
bool presentedTwice;        /* the server saw a refresh token presented again */
byte overtaken;             /* a stored token whose rotation a sign-out or sign-in overtook (saved for the next holder of the section) */
bool presentedOvertaken;    /* such a token was presented again (finding F1, README) */
bool sessionLost;           /* a session ended other than by a sign-out */
bool rotationLost;          /* at the end, the store holds a token the server already used */
bool wrongAccount;          /* a call was made with another account's token than it started with */
bool nonceFailedCall;       /* a refresh failed on a nonce challenge (its callers saw it) */

/* The server's refresh transaction (AuthService.refresh(refreshToken:clientIsConnected:)),
 * one atomic step; `t` is presented; sets `code` and, when rotated, `got`. */
inline issue_child(t) {
    assert(ntok < MAXTOK);
    got = ntok; ntok++;
    tfam[got] = tfam[t]; tparent[got] = t
}

inline children_of(t) {  /* SessionStore.children(of:in:) */
    n_issued = 0; n_used = 0; i = 1;
    do
    :: i < ntok ->
        if
        :: tparent[i] == t -> n_issued++; if :: tused[i] -> n_used++ :: else fi
        :: else
        fi;
        i++
    :: else -> break
    od
}

inline server_refresh(t) {
    if
    :: tused[t] || twd[t] ->
        if :: t == overtaken -> presentedOvertaken = true :: else -> presentedTwice = true fi;
        children_of(t);
        if
        :: GRACE && !twd[t] && !frev[tfam[t]] && n_issued > 0 && n_used == 0 ->
            issue_child(t); code = S_ROTATED          /* a sibling: mayIssueSibling */
        :: else ->
            if :: !frev[tfam[t]] -> sessionLost = true :: else fi;
            frev[tfam[t]] = true; code = S_REUSED       /* SessionStore.revoke */
        fi
    :: else ->
        if
        :: frev[tfam[t]] -> code = S_INVALID
        :: else ->
            i = 1;                                      /* SessionStore.withdrawSiblings */
            do
            :: i < ntok ->
                if :: i != t && tparent[i] == tparent[t] && tparent[t] != 0 && !tused[i] -> twd[i] = true
                   :: else fi;
                i++
            :: else -> break
            od;
            tused[t] = true;                            /* SessionStore.markUsed */
            issue_child(t); code = S_ROTATED
        fi
    fi;
    i = 0; n_issued = 0; n_used = 0
}

/* The token endpoint's answer to a refresh that presents `stored`: a 5xx before the token is
 * read (MAXFAIL), a nonce challenge (MAXNONCE: the server checks the proof and its nonce before
 * its transaction, so it touches none of tused, twd, frev), or the transaction itself. One
 * atomic step of the client, so a dead client's request is never processed. */
inline token_endpoint() {
    atomic {
        if
        :: fails < MAXFAIL -> fails++; code = S_FAILED
        :: nonces < MAXNONCE -> nonces++;
#ifdef NONCE_AFTER_USE
            d_step { server_refresh(stored) };          /* the transaction first, then the nonce */
#endif
            code = S_NONCE
        :: true -> d_step { server_refresh(stored) }
        fi
    }
}

/* TokenStore.withExclusiveAccess: flock(LOCK_EX | LOCK_NB), or pg_try_advisory_lock, tried
 * again after a sleep until it is free (FileLock.swift, AdvisoryLock.swift). Polling can go on
 * for ever while the holder never runs: the liveness check assumes weak fairness. */
inline enter_section() {
    do
    :: atomic { lock == 0 -> lock = p + 1 }; break
    :: lock != 0 -> skip                               /* taken: sleep, try again */
    od
}

inline leave_section() {
    lock = 0
}

/* SessionService.refresh(after:) for `cred`: sets `r` and `got`; a result of another account
 * than `cred`'s (a joined refresh of the session another program signed in) is R_CHANGED. */
inline refresh() {
    d_step {                                            /* SessionState.callerNeedsRefresh */
        if
        :: inflight[p] != 0 -> rid = inflight[p]; joined = true; joiner[p * NSLOT + rid] = true
        :: else ->
            if
            :: !busy[p * NSLOT + 1] -> rid = 1
            :: else -> assert(!busy[p * NSLOT + 2]); rid = 2
            fi;
            busy[p * NSLOT + rid] = true; inflight[p] = rid; g = gen[p]; joined = false
        fi
    }
    if
    :: joined ->                                        /* SessionService.result(of:) */
        d_step {
            rres[p * NSLOT + rid] != 0 ->
            r = rres[p * NSLOT + rid]; got = rtok[p * NSLOT + rid];
            rres[p * NSLOT + rid] = 0; rtok[p * NSLOT + rid] = 0;
            joiner[p * NSLOT + rid] = false; busy[p * NSLOT + rid] = false
        }
    :: else -> perform();
        d_step {                                        /* SessionState.refreshFinished */
            if
            :: joiner[p * NSLOT + rid] -> rres[p * NSLOT + rid] = r; rtok[p * NSLOT + rid] = got
            :: else -> busy[p * NSLOT + rid] = false
            fi;
            if :: inflight[p] == rid -> inflight[p] = 0 :: else fi
        }
    fi;
#ifndef NO_ACCOUNT_CHECK
    if                                                  /* refresh(after:): never another account's */
    :: r == R_OK && facct[tfam[got]] != facct[tfam[cred]] -> r = R_CHANGED; got = 0
    :: else
    fi;
#endif
    rid = 0; joined = false; g = 0
}

/* SessionService.refreshInsideExclusiveSection(after:generation:), inside the section. */
inline perform() {
    got = 0;
    enter_section();
#ifdef NO_REREAD
    stored = cred;
#else
    stored = stok;                                      /* tokenStore.load() */
#endif
    if
    :: stored == 0 ->                                   /* credentialsToRefresh: another program signed out */
        atomic { if :: gen[p] == g -> gen[p]++ :: else fi; r = R_ENDED }   /* sessionEndedElsewhere */
    :: stored != 0 && facct[tfam[stored]] != facct[tfam[cred]] ->   /* another account signed in */
        atomic { if :: gen[p] == g -> gen[p]++ :: else fi; r = R_CHANGED }
    :: stored != 0 && stored != cred && facct[tfam[stored]] == facct[tfam[cred]] ->
        r = R_OK; got = stored                          /* another caller already replaced it */
    :: stored != 0 && stored == cred ->
        token_endpoint();                               /* refresher.refresh */
#if MAXNONCE > 0 && !defined(NONCE_NO_RETRY)            /* (without nonces, no step of its own) */
        if                                              /* a nonce challenge: one retry with the new nonce, */
        :: code == S_NONCE -> token_endpoint()          /* the same token, still inside the section */
        :: else -> skip
        fi;
#endif
        if                                              /* the answer is lost on its way back */
        :: code != S_FAILED && losses < MAXLOSS -> losses++; code = S_FAILED; got = 0
        :: true -> skip
        fi;
        atomic {                                        /* back in the engine, under SessionState's lock */
            stale = (gen[p] != g);
            if
            :: code == S_ROTATED ->                     /* keep: rotationArrived(_:in:) */
#ifdef NO_GENCHECK
                r = R_OK
#else
                if :: stale -> r = R_ENDED; overtaken = stored; code = S_OVERTAKEN :: else -> r = R_OK fi
#endif
            :: code == S_REUSED || code == S_INVALID -> /* refreshFailure: refreshFailed(in:endingSession:) */
                if :: gen[p] == g -> gen[p]++; code = 0 :: else -> skip fi;
                r = R_ENDED
            :: code == S_FAILED -> r = R_FAILED
            :: code == S_NONCE ->                       /* a second challenge: RefreshFailure.Kind.dpopNonce */
#ifdef NONCE_IS_FAILURE
                if :: gen[p] == g -> gen[p]++; code = 0 :: else -> skip fi;   /* taken for a rejection */
                r = R_ENDED
#else
                assert(stok == stored);                 /* transient: the session and its token are kept */
                r = R_FAILED
#endif
                ; nonceFailedCall = true
            fi;
            /* a sign-out or sign-in began before the answer arrived: its callers get nothing */
            assert(!(r == R_OK && stale))
        }
        if
        :: r == R_OK ->                                 /* tokenStore.save(renewed) */
            assert(stok != 0);                          /* a sign-out is never undone */
            assert(tfam[stok] == tfam[got]);            /* another session is never overwritten */
            stok = got
        :: r == R_ENDED && code == 0 ->                 /* tokenStore.clear(): the session ends here */
            assert(stok == 0 || tfam[stok] == tfam[stored]);  /* only its own session */
            atomic { if :: stok != 0 && !frev[tfam[stok]] -> sessionLost = true :: else fi; stok = 0 }
        :: r == R_ENDED && code == S_OVERTAKEN ->       /* keep: saveOvertaken, to no caller */
#ifndef NO_OVERTAKEN_SAVE
            if :: stok == stored -> stok = got :: else fi   /* only over the token it rotated */
#else
            skip
#endif
        :: else -> skip
        fi
    fi;
    d_step { leave_section(); stored = 0; code = 0; stale = false }
}

/* A call with the access token of `cred` (SessionService.call). Calls do not change what the
 * server or the store hold; the model only watches whose token they carry. */
inline call() {
    if :: facct[tfam[cred]] != acct0 -> wrongAccount = true :: else fi
}

/* SessionService.request(handler:): the stored credentials, then either the call goes through,
 * or a refresh (ahead, as the token is due: rule 1; or after a 401: rule 2, at most once) and
 * the call with what it returned. A transient failure refreshing ahead goes ahead with the
 * still-valid token; every other outcome is an error for the caller. */
inline request() {
    cred = stok;                                        /* currentCredentials() */
    if
    :: cred == 0 -> skip                                /* notSignedIn */
    :: else ->
        acct0 = facct[tfam[cred]];
        if
        :: call()
        :: refresh();
            if
            :: r == R_OK -> cred = got; call()
            :: else -> skip
            fi
        fi
    fi;
    d_step { cred = 0; acct0 = 0; r = 0; got = 0 }
}

/* SessionService.signOut() */
inline sign_out() {
    atomic { gen[p]++; inflight[p] = 0 }                /* startNewGeneration */
    enter_section();
    t = stok;                                           /* load, clear */
    stok = 0;
    leave_section();
    if
    :: t != 0 ->                                        /* revoke: the server ends the family */
        if :: frev[tfam[t]] = true :: skip fi           /* (or the revocation fails: local only) */
    :: else -> skip
    fi;
    t = 0
}

/* A sign-in elsewhere (the server starts a family), then SessionService.startSession(tokens:accountID:) */
inline sign_in() {
    atomic {
        assert(nfam < MAXFAM && ntok < MAXTOK);
        if :: facct[nfam] = 1 :: facct[nfam] = 2 fi;
        t = ntok; ntok++; tfam[t] = nfam; nfam++
    }
    atomic { gen[p]++; inflight[p] = 0 }                /* startNewGeneration */
    enter_section();
    atomic { stok = t; leave_section(); t = 0 }         /* tokenStore.save */
}

proctype Client(byte p) {
    byte cred, acct0, r, code, g, rid, stored, got, t, i, n_issued, n_used, op;
    bool joined, stale;
    {
        do
        :: (p == 0 && op < OPS) || (p == 1 && op < OPS1) ->
            op++;
            if
            :: request()
            :: atomic { signs < MAXSIGN -> signs++ }; sign_out()
            :: atomic { signs < MAXSIGN -> signs++ }; sign_in()
            fi
        :: else -> break
        od
    } unless { !alive[p] };                             /* the process was killed */
    done++
}

proctype Crasher() {
    do
    :: atomic { crashes < MAXCRASH && alive[0] -> crashes++; alive[0] = false; if :: lock == 1 -> lock = 0 :: else fi }
    :: atomic { crashes < MAXCRASH && alive[1] -> crashes++; alive[1] = false; if :: lock == 2 -> lock = 0 :: else fi }
    :: done == NCLIENT -> break
    od
}

/* When every client has finished: the stored refresh token is one the server has not used
 * (a rotation saved by its holder), unless the grace period covers it (a sibling is issued). */
proctype End() {
    byte i, n_issued, n_used;
    done == NCLIENT;
    atomic {
        if
        :: stok != 0 && !frev[tfam[stok]] && (tused[stok] || twd[stok]) ->
            children_of(stok);
            if
            :: GRACE && !twd[stok] && n_issued > 0 && n_used == 0 -> skip   /* a sibling saves it */
            :: else -> sessionLost = true
            fi;
            rotationLost = true
        :: else -> skip
        fi
    }
}

init {
    atomic {
        tfam[1] = 1; facct[1] = 1;
        alive[0] = true; alive[1] = true;
        run Client(0); run Client(0); run Client(1);
        run End();
#if MAXCRASH > 0
        run Crasher()
#endif
    }
}

/* Properties (docs/model/README.md says which runs check which). */
ltl no_reuse      { [] !presentedTwice }             /* the server never sees a token twice (an overtaken one apart) */
ltl no_reuse_at_all { [] !(presentedTwice || presentedOvertaken) }   /* the same, overtaken ones included (F1) */
ltl no_lost_rotation { [] !rotationLost }            /* every rotation the server made is stored */
ltl session_kept  { [] !sessionLost }                /* a session ends only by sign-out */
ltl one_account   { [] !wrongAccount }               /* a call never switches accounts */
ltl terminates    { <> (done == NCLIENT) }           /* no client waits or spins forever */
ltl nonce_invisible { [] !nonceFailedCall }          /* one nonce challenge never fails a refresh */
