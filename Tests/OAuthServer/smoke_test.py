#!/usr/bin/env python3
"""End-to-end check of a running conformance OAuth server (standard library only).

    smoke_test.py STATE_DIR [--load N] [--quiet]

STATE_DIR is the one given to `scripts/lib/oauth-server.sh start` (its `env` file says
where the server is and with which credentials); the server must have been started with
the default 5 s access tokens. The check stops and resumes that server once (through
scripts/lib/oauth-server.sh), and ends with a concurrency run of N simultaneous token
requests (default 200, 0 to skip) that must not see a single 5xx.
Prints every exchange; exits non-zero on the first failed expectation.
"""
import argparse
import base64
import http.client
import json
import os
import subprocess
import sys
import threading
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "..", "scripts", "lib", "oauth-server.sh")
SHOWN_HEADERS = ("content-type", "www-authenticate", "location", "cache-control", "pragma")

quiet = False
passed = 0


class Response:
    def __init__(self, status, headers, body):
        self.status = status
        self.headers = headers  # lower-cased names
        self.body = body

    def json(self):
        return json.loads(self.body)


def call(base, method, path, form=None, body=None, headers=None, label=None):
    """One request on a fresh connection; no redirect is followed."""
    url = urllib.parse.urlsplit(base)
    headers = dict(headers or {})
    if form is not None:
        body = urllib.parse.urlencode(form)
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=60)
    try:
        conn.request(method, path, body=body, headers=headers)
        r = conn.getresponse()
        resp = Response(r.status, {k.lower(): v for k, v in r.getheaders()}, r.read().decode())
    finally:
        conn.close()
    if label and not quiet:
        print(f"\n## {label}\n{method} {path}" + (f"  body: {body}" if body and len(body) < 300 else ""))
        print(f"-> {resp.status}")
        for name in SHOWN_HEADERS:
            if name in resp.headers:
                print(f"   {name}: {resp.headers[name]}")
        print(f"   {resp.body}")
    return resp


def expect(condition, what):
    global passed
    print(("ok   " if condition else "FAIL ") + what)
    if not condition:
        print(f"smoke_test: {passed} passed, 1 failed")
        sys.exit(f"smoke test failed: {what}")
    passed += 1


def basic(client_id, secret):
    q = urllib.parse.quote
    return "Basic " + base64.b64encode(f"{q(client_id, safe='')}:{q(secret, safe='')}".encode()).decode()


def main():
    global quiet
    parser = argparse.ArgumentParser()
    parser.add_argument("state_dir")
    parser.add_argument("--load", type=int, default=200)
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args()
    quiet = args.quiet

    env = dict(
        line.strip().split("=", 1) for line in open(os.path.join(args.state_dir, "env")) if "=" in line
    )
    base = env["APP_OAUTH_SERVER_URL"]
    cid, secret = env["APP_OAUTH_CLIENT_ID"], env["APP_OAUTH_CLIENT_SECRET"]
    user, password = env["APP_OAUTH_USERNAME"], env["APP_OAUTH_PASSWORD"]
    auth = {"Authorization": basic(cid, secret)}
    counts = dict(tokenCalls=0, refreshCalls=0, passwordCalls=0, revokeCalls=0, unauthorized=0, forbidden=0,
                  invalidGrant=0, authorizationCodeCalls=0, deviceCodeCalls=0, clientCredentialsCalls=0,
                  authorizationPending=0, slowDown=0)

    def token(form, label, headers=auth):
        r = call(base, "POST", "/o/token/", form=form, headers=headers, label=label)
        counts["tokenCalls"] += 1
        gt = form.get("grant_type")
        counts["refreshCalls"] += gt == "refresh_token"
        counts["passwordCalls"] += gt == "password"
        counts["invalidGrant"] += "invalid_grant" in r.body
        return r

    def me(access_token, label):
        h = {"Authorization": f"Bearer {access_token}"} if access_token else {}
        r = call(base, "GET", "/api/me/", headers=h, label=label)
        counts["unauthorized"] += r.status == 401
        return r

    def password_grant(label="password grant (client_secret_basic)"):
        return token({"grant_type": "password", "username": user, "password": password}, label)

    r = call(base, "POST", "/test/reset", label="POST /test/reset")
    expect(r.status == 200 and all(v == 0 for v in r.json().values()), "reset zeroes the counters")

    # --- password grant, both client authentication methods
    r = password_grant()
    t = r.json()
    expect(r.status == 200, "password grant with client_secret_basic -> 200")
    expect(sorted(t) == ["access_token", "expires_in", "refresh_token", "scope", "token_type"],
           f"token response fields {sorted(t)}")
    expect(t["expires_in"] == 5 and t["token_type"] == "Bearer" and t["scope"] == "read write",
           "expires_in 5, token_type Bearer, scope 'read write'")
    expect(r.headers.get("cache-control") == "no-store", "Cache-Control: no-store")
    first = t
    r = token({"grant_type": "password", "username": user, "password": password,
               "client_id": cid, "client_secret": secret},
              "password grant (client_secret_post)", headers={})
    expect(r.status == 200 and "refresh_token" in r.json(), "password grant with client_secret_post -> 200")
    r = token({"grant_type": "password", "username": user, "password": password, "scope": "read"},
              "password grant, scope=read")
    expect(r.status == 200 and r.json()["scope"] == "read", "scope=read narrows the scope")

    # --- the protected resource
    r = me(first["access_token"], "GET /api/me/ with the access token")
    expect(r.status == 200 and r.json()["username"] == user and isinstance(r.json()["id"], int),
           "/api/me/ -> 200 {id, username}")
    r = me(None, "GET /api/me/ without Authorization")
    expect(r.status == 401 and r.headers.get("www-authenticate") == 'Bearer realm="api"',
           '401, WWW-Authenticate: Bearer realm="api"')
    r = me("not-a-token", "GET /api/me/ with an unknown token")
    expect(r.status == 401 and 'error="invalid_token"' in r.headers.get("www-authenticate", ""),
           "unknown token -> 401 with error=\"invalid_token\"")

    # --- expiry
    time.sleep(6)
    r = me(first["access_token"], "GET /api/me/ 6 s later (expired)")
    expect(r.status == 401 and "has expired" in r.headers.get("www-authenticate", ""),
           "expired token -> 401, WWW-Authenticate says it has expired")

    # --- refresh with rotation, reuse detection
    r = token({"grant_type": "refresh_token", "refresh_token": first["refresh_token"]},
              "refresh (client_secret_basic)")
    second = r.json()
    expect(r.status == 200 and second["refresh_token"] != first["refresh_token"]
           and second["access_token"] != first["access_token"] and second["expires_in"] == 5,
           "refresh -> 200, new access token, new refresh token (rotation)")
    expect(me(second["access_token"], None).status == 200, "the refreshed access token works")
    r = token({"grant_type": "refresh_token", "refresh_token": first["refresh_token"]},
              "the rotated (old) refresh token again")
    expect(r.status == 400 and r.json() == {"error": "invalid_grant"}, 'reused refresh token -> 400 {"error": "invalid_grant"}')
    r = token({"grant_type": "refresh_token", "refresh_token": second["refresh_token"]},
              "the new refresh token after the reuse (family revoked?)")
    expect(r.status == 400 and r.json() == {"error": "invalid_grant"},
           "reuse protection: the family's newest refresh token is dead too")
    r = me(second["access_token"], "the family's newest access token after the reuse")
    expect(r.status == 401, "reuse protection: the family's access token is dead too")
    r = token({"grant_type": "refresh_token", "refresh_token": "unknown-refresh-token"},
              "an unknown refresh token")
    expect(r.status == 400 and r.json() == {"error": "invalid_grant"}, "unknown refresh token -> 400 invalid_grant")

    # --- client and user errors
    r = token({"grant_type": "password", "username": user, "password": password},
              "wrong client secret", headers={"Authorization": basic(cid, "wrong")})
    expect(r.status == 401 and r.json().get("error") == "invalid_client", "wrong client secret -> 401 invalid_client")
    r = token({"grant_type": "password", "username": user, "password": "wrong"}, "wrong user password")
    expect(r.status == 400 and r.json().get("error") == "invalid_grant", "wrong password -> 400 invalid_grant")
    r = token({"grant_type": "password", "username": user, "password": password, "scope": "admin"},
              "an unknown scope")
    expect(r.status == 400 and r.json().get("error") == "invalid_scope", "unknown scope -> 400 invalid_scope")

    # --- request shape
    r = call(base, "POST", "/o/token/", label="a JSON body to /o/token/",
             body=json.dumps({"grant_type": "refresh_token", "refresh_token": second["refresh_token"]}),
             headers={**auth, "Content-Type": "application/json"})
    counts["tokenCalls"] += 1
    counts["invalidGrant"] += "invalid_grant" in r.body
    expect(r.status == 400 and r.json().get("error") == "unsupported_grant_type",
           "JSON body -> 400 unsupported_grant_type")
    r = call(base, "POST", "/o/token", form={"grant_type": "password"}, headers=auth,
             label="POST /o/token (no trailing slash)")
    expect(r.status == 301 and r.headers.get("location") == "/o/token/", "/o/token -> 301 Location: /o/token/")
    r = call(base, "GET", "/api/me", label="GET /api/me (no trailing slash)")
    expect(r.status == 301 and r.headers.get("location") == "/api/me/", "/api/me -> 301 Location: /api/me/")

    # --- revocation (RFC 7009)
    third = password_grant("password grant (for revocation)").json()
    r = call(base, "POST", "/o/revoke_token/", headers=auth, label="revoke the refresh token",
             form={"token": third["refresh_token"], "token_type_hint": "refresh_token"})
    counts["revokeCalls"] += 1
    expect(r.status == 200 and r.body == "", "revocation -> 200, empty body")
    r = token({"grant_type": "refresh_token", "refresh_token": third["refresh_token"]},
              "refresh with the revoked refresh token")
    expect(r.status == 400 and r.json() == {"error": "invalid_grant"}, "revoked refresh token -> 400 invalid_grant")
    r = me(third["access_token"], "its access token after revoking the refresh token")
    expect(r.status == 401, "revoking the refresh token also revokes its access token")
    r = call(base, "POST", "/o/revoke_token/", headers=auth, label="revoke an unknown token",
             form={"token": "unknown", "token_type_hint": "refresh_token"})
    counts["revokeCalls"] += 1
    expect(r.status == 200, "revoking an unknown token -> 200 (RFC 7009 2.2)")
    fourth = password_grant("password grant (for access-token revocation)").json()
    r = call(base, "POST", "/o/revoke_token/", headers=auth, label="revoke the access token",
             form={"token": fourth["access_token"], "token_type_hint": "access_token"})
    counts["revokeCalls"] += 1
    expect(r.status == 200 and me(fourth["access_token"], None).status == 401, "revoked access token -> 401")
    r = token({"grant_type": "refresh_token", "refresh_token": fourth["refresh_token"]},
              "refresh after revoking only the access token")
    # DOT 3.4 revokes the bound refresh token too (RFC 7009 2.1 allows it).
    expect(r.status == 400 and r.json() == {"error": "invalid_grant"},
           "revoking the access token also revoked its refresh token (-> 400 invalid_grant)")

    # --- the expire helper
    fifth = password_grant("password grant (for /test/expire-access-tokens)").json()
    r = call(base, "POST", "/test/expire-access-tokens", label="POST /test/expire-access-tokens")
    expect(r.status == 200 and r.json()["expired"] >= 1, "expire-access-tokens answers the count")
    expect(me(fifth["access_token"], None).status == 401, "its access token is expired at once")
    r = token({"grant_type": "refresh_token", "refresh_token": fifth["refresh_token"]}, None)
    expect(r.status == 200, "its refresh token still works")
    sixth = r.json()

    # --- counters
    r = call(base, "GET", "/test/counters", label="GET /test/counters")
    expect(r.json() == counts, f"counters are {counts}")

    # --- stop and resume: same port, same database
    subprocess.run([SCRIPT, "stop", args.state_dir], check=True)
    try:
        call(base, "GET", "/test/counters")
        expect(False, "the server is down after stop")
    except OSError as e:
        expect(True, f"after stop the port refuses connections ({e.__class__.__name__})")
    subprocess.run([SCRIPT, "stop", args.state_dir], check=True)  # idempotent
    started = time.monotonic()
    subprocess.run([SCRIPT, "resume", args.state_dir], check=True)
    print(f"resume took {time.monotonic() - started:.2f} s")
    r = call(base, "GET", "/test/counters", label="GET /test/counters after resume")
    expect(r.json() == counts, "counters survive stop/resume")
    r = token({"grant_type": "refresh_token", "refresh_token": sixth["refresh_token"]},
              "refresh with a token issued before the stop")
    expect(r.status == 200, "a refresh token issued before the outage still works")
    r = me(r.json()["access_token"], "its new access token")
    expect(r.status == 200, "and so does the access token it gave")
    r = password_grant()
    expect(r.status == 200, "the user and client survive stop/resume")

    if args.load:
        load(base, auth, user, password, args.load)
    sign_in_flows(base, env)
    print(f"\nsmoke_test: {passed} passed, 0 failed")


def load(base, auth, user, password, n):
    """N simultaneous token requests: a third password grants, a third refreshes of
    distinct tokens, and a third all presenting one and the same refresh token."""
    global quiet
    quiet = True
    pw = {"grant_type": "password", "username": user, "password": password}
    k = n // 3
    seeds = [call(base, "POST", "/o/token/", form=pw, headers=auth).json()["refresh_token"] for _ in range(k + 1)]
    shared_token = seeds.pop()
    call(base, "POST", "/test/reset")
    jobs = [pw] * (n - 2 * k)
    jobs += [{"grant_type": "refresh_token", "refresh_token": rt} for rt in seeds]
    jobs += [{"grant_type": "refresh_token", "refresh_token": shared_token}] * k
    results = [None] * len(jobs)
    barrier = threading.Barrier(len(jobs))

    def run(i):
        barrier.wait()
        try:
            results[i] = call(base, "POST", "/o/token/", form=jobs[i], headers=auth)
        except Exception as e:  # noqa: BLE001 - reported below
            results[i] = e

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(jobs))]
    started = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    took = time.monotonic() - started
    errors = [r for r in results if isinstance(r, Exception)]
    statuses = {}
    for r in results:
        if not isinstance(r, Exception):
            statuses[r.status] = statuses.get(r.status, 0) + 1
    print(f"\n## load: {len(jobs)} simultaneous token requests in {took:.2f} s -> statuses {statuses}, "
          f"{len(errors)} connection errors {errors[:3]}")
    expect(not errors and not any(s >= 500 for s in statuses), "no 5xx and no connection error under load")
    expect(all(r.status == 200 for r in results[: n - k]),
           "every password grant and every refresh of a distinct token -> 200")

    # One refresh token presented k times at once: DOT validates each request before its
    # (serialized) write, so those that passed validation before the first rotation
    # committed get 200 with the pair that rotation minted, and the rest get invalid_grant,
    # which (reuse protection) revokes the family -- a client must never do this.
    shared = results[n - k:]
    pairs = {(r.json()["access_token"], r.json()["refresh_token"]) for r in shared if r.status == 200}
    print(f"   {k} refreshes of one refresh token: {sum(r.status == 200 for r in shared)} x 200 "
          f"with {len(pairs)} distinct token pair(s), {sum(r.status == 400 for r in shared)} x 400 "
          f"{sorted({r.body for r in shared if r.status == 400})}")
    expect(all(r.status in (200, 400) for r in shared), "each of them -> 200 or 400")
    followups = []
    for _, refresh_token in sorted(pairs):
        r = call(base, "POST", "/o/token/", headers=auth,
                 form={"grant_type": "refresh_token", "refresh_token": refresh_token})
        followups.append(r)
        print(f"   afterwards, refreshing with a refresh token those 200s returned -> {r.status} {r.body}")

    c = call(base, "GET", "/test/counters").json()
    everything = results + followups
    want = dict(tokenCalls=len(everything), refreshCalls=2 * k + len(followups), passwordCalls=n - 2 * k,
                revokeCalls=0, unauthorized=0, forbidden=0,
                invalidGrant=sum("invalid_grant" in r.body for r in everything),
                authorizationCodeCalls=0, deviceCodeCalls=0, clientCredentialsCalls=0, authorizationPending=0, slowDown=0)
    expect(c == want, f"counters after the load {c} match the requests")


class Browser:
    """A user's browser: cookies kept, redirects not followed (each is looked at)."""

    def __init__(self, base):
        self.base = base
        self.cookies = {}

    def request(self, method, url, form=None):
        parts = urllib.parse.urlsplit(urllib.parse.urljoin(self.base, url))
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())} if self.cookies else {}
        body = None
        if form is not None:
            body = urllib.parse.urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
        try:
            conn.request(method, parts.path + ("?" + parts.query if parts.query else ""), body=body, headers=headers)
            r = conn.getresponse()
            for name, value in r.getheaders():
                if name.lower() == "set-cookie":
                    cookie = value.split(";", 1)[0]
                    k, _, v = cookie.partition("=")
                    self.cookies[k.strip()] = v.strip()
            return Response(r.status, {k.lower(): v for k, v in r.getheaders()}, r.read().decode())
        finally:
            conn.close()

    def hidden_fields(self, html):
        import re
        fields = {}
        for tag in re.findall(r"<input[^>]*>", html):
            name = re.search(r'name="([^"]*)"', tag)
            value = re.search(r'value="([^"]*)"', tag)
            if name and 'type="hidden"' in tag:
                fields[name.group(1)] = (value.group(1) if value else "").replace("&amp;", "&")
        return fields

    def sign_in(self, user, password):
        page = self.request("GET", "/accounts/login/")
        form = self.hidden_fields(page.body)
        form.update(username=user, password=password, next="/test/counters")
        r = self.request("POST", "/accounts/login/", form)
        return r.status == 302 and r.headers.get("location") == "/test/counters"


def jwt_claims(token):
    payload = token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


def sign_in_flows(base, env):
    """OpenID Connect discovery, the authorization-code grant with PKCE and a loopback
    redirect, the device grant, client credentials."""
    import hashlib
    import secrets

    user, password = env["APP_OAUTH_USERNAME"], env["APP_OAUTH_PASSWORD"]
    issuer = env["APP_OAUTH_ISSUER"]
    call(base, "POST", "/test/reset")
    r = call(base, "GET", "/o/.well-known/openid-configuration", label="OpenID Connect discovery")
    d = r.json()
    expect(r.status == 200 and d["issuer"] == issuer, f"discovery names the issuer {issuer}")
    expect(d["device_authorization_endpoint"] == base + "/o/device-authorization/"
           and d["revocation_endpoint"] == base + "/o/revoke_token/"
           and d["userinfo_endpoint"] == base + "/o/userinfo/"
           and d["code_challenge_methods_supported"] == ["S256"],
           "discovery names the device, revocation and userinfo endpoints, and S256 only")
    r = call(base, "GET", "/.well-known/oauth-authorization-server/o", label="RFC 8414 metadata of the issuer /o")
    expect(r.status == 200 and r.json()["issuer"] == issuer and "device_authorization_endpoint" in r.json(),
           "RFC 8414 metadata at /.well-known/oauth-authorization-server/o names the same issuer")

    # --- authorization code with PKCE, loopback redirect on any port
    browser = Browser(base)
    expect(browser.sign_in(user, password), "the user signs in to Django (login form, CSRF token)")
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()

    def authorize(port, allow, **extra):
        query = dict(response_type="code", client_id="sdk-browser", redirect_uri=f"http://127.0.0.1:{port}/callback",
                     scope="openid read", state="st4te", nonce="n0nce", code_challenge=challenge,
                     code_challenge_method="S256")
        query.update(extra)
        query = {k: v for k, v in query.items() if v is not None}
        page = browser.request("GET", "/o/authorize/?" + urllib.parse.urlencode(query))
        if page.status != 200:
            return page
        form = browser.hidden_fields(page.body)
        if allow:
            form["allow"] = "Authorize"
        return browser.request("POST", "/o/authorize/?" + urllib.parse.urlencode(query), form)

    for port in (49152, 61000):
        r = authorize(port, True)
        location = urllib.parse.urlsplit(r.headers.get("location", ""))
        params = dict(urllib.parse.parse_qsl(location.query))
        expect(r.status == 302 and location.netloc == f"127.0.0.1:{port}" and location.path == "/callback"
               and params.get("state") == "st4te" and "code" in params,
               f"approving redirects to the loopback port {port} with a code and the state")
    t = call(base, "POST", "/o/token/", label=None, form=dict(
        grant_type="authorization_code", code=params["code"], redirect_uri="http://127.0.0.1:61000/callback",
        client_id="sdk-browser", code_verifier=verifier))
    expect(t.status == 200 and {"access_token", "refresh_token", "id_token"} <= set(t.json()),
           "the code and verifier give access, refresh and ID tokens")
    claims = jwt_claims(t.json()["id_token"])
    expect(claims["iss"] == issuer and claims["aud"] == "sdk-browser" and claims["nonce"] == "n0nce"
           and claims["preferred_username"] == user, "the ID token: iss, aud, nonce, preferred_username")
    r = call(base, "GET", "/o/userinfo/", headers={"Authorization": "Bearer " + t.json()["access_token"]})
    expect(r.status == 200 and r.json()["sub"] == claims["sub"], "userinfo answers the ID token's sub")
    r = authorize(61000, False)
    params = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(r.headers.get("location", "")).query))
    expect(r.status == 302 and params.get("error") == "access_denied" and params.get("state") == "st4te",
           "denying redirects with error=access_denied and the state")
    r = authorize(61000, True, code_challenge=None, code_challenge_method=None)
    params = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(r.headers.get("location", "")).query))
    expect(r.status == 302 and params.get("error") == "invalid_request", "no code challenge: invalid_request (PKCE required)")
    r = authorize(61000, True, code_challenge_method="plain")
    params = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(r.headers.get("location", "")).query))
    expect(r.status == 302 and params.get("error") == "invalid_request", "code_challenge_method=plain: invalid_request")

    # --- the device grant
    def device_code(scope="read"):
        return call(base, "POST", "/o/device-authorization/", form={"client_id": "sdk-device", "scope": scope}).json()

    def poll(code):
        return call(base, "POST", "/o/token/", form={"grant_type": "urn:ietf:params:oauth:grant-type:device_code",
                                                     "device_code": code["device_code"], "client_id": "sdk-device"})

    def decide(code, action):
        page = browser.request("GET", "/o/device/")
        form = browser.hidden_fields(page.body)
        form["user_code"] = code["user_code"]
        r = browser.request("POST", "/o/device/", form)
        confirm = browser.request("GET", r.headers["location"])
        form = browser.hidden_fields(confirm.body)
        form["action"] = action
        return browser.request("POST", r.headers["location"], form)

    code = device_code()
    expect(code["interval"] == 1 and code["verification_uri"] == base + "/o/device/"
           and code["verification_uri_complete"].endswith("user_code=" + code["user_code"]),
           "device authorization: interval 1, the verification URIs")
    time.sleep(1.05)
    expect(poll(code).json() == {"error": "authorization_pending"}, "before approval, a second on: authorization_pending")
    expect(poll(code).json() == {"error": "slow_down"}, "polling again at once: slow_down")
    time.sleep(1.05)
    expect(decide(code, "accept").status == 302, "the user enters the code and accepts")
    r = poll(code)
    expect(r.status == 200 and "access_token" in r.json() and "id_token" not in r.json(), "after approval: tokens (no ID token without openid)")
    code = device_code("openid read")
    decide(code, "accept")
    r = poll(code)
    claims = jwt_claims(r.json().get("id_token", "x.e30."))
    expect(r.status == 200 and claims.get("aud") == "sdk-device" and claims.get("iss") == issuer
           and claims.get("preferred_username") == user, "with openid: an ID token for the device client")
    code = device_code()
    time.sleep(1.05)
    decide(code, "deny")
    expect(poll(code).json() == {"error": "access_denied"}, "denied: access_denied")
    code = device_code()
    expect(call(base, "POST", "/test/expire-device-codes").json()["expired"] >= 1, "expire-device-codes")
    expect(poll(code).json() == {"error": "expired_token"}, "expired: expired_token")

    # --- client credentials
    service = {"Authorization": basic(env["APP_OAUTH_SERVICE_CLIENT_ID"], env["APP_OAUTH_SERVICE_CLIENT_SECRET"])}
    r = call(base, "POST", "/o/token/", form={"grant_type": "client_credentials"}, headers=service,
             label=None)
    expect(r.status == 200 and r.json()["expires_in"] == 5 and "refresh_token" not in r.json(),
           "client credentials: a 5-second token, no refresh token")
    r = call(base, "GET", "/api/client/", headers={"Authorization": "Bearer " + r.json()["access_token"]})
    expect(r.status == 200 and r.json() == {"clientID": "sdk-service", "scope": "read write", "username": None},
           "/api/client/ answers the client-credentials token's client")
    r = call(base, "GET", "/api/client/", headers={"Authorization": "Bearer not-a-token"})
    expect(r.status == 401 and "Bearer" in r.headers.get("www-authenticate", ""), "/api/client/ with an unknown token: 401")
    c = call(base, "GET", "/test/counters").json()
    expect(c["authorizationCodeCalls"] == 1 and c["deviceCodeCalls"] == 6 and c["slowDown"] == 1 and c["clientCredentialsCalls"] == 1,
           f"counters by grant {c}")


if __name__ == "__main__":
    main()
