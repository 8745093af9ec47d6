#!/usr/bin/env python3
"""What glewlwyd 2.7.5's DPoP does with RFC 9449 proofs, checked against a running server.

    GLEWLWYD_DPOP=1 GLEWLWYD_ACCESS_TOKEN_SECONDS=60 scripts/lib/glewlwyd.sh start STATE_DIR
    python3 scripts/lib/glewlwyd-dpop-probe.py STATE_DIR [-v]
    scripts/lib/glewlwyd.sh stop STATE_DIR

Needs the packages `cryptography` and `requests` (a venv: python3 -m venv .build/glewlwyd-dpop-venv;
.build/glewlwyd-dpop-venv/bin/pip install cryptography requests). Reads STATE_DIR/env, which
scripts/lib/glewlwyd.sh writes (with GLEWLWYD_DPOP=1: the instances oidc-dpop and
oidc-dpop-nonce). Every line it prints is one behaviour, `ok` when glewlwyd did what
docs/OTHER-SERVERS.md ("glewlwyd and DPoP") says it does, `FAIL` otherwise; it exits 1 on a
FAIL. With -v it also prints each exchange: method, path, status, the DPoP-related headers and
the answer's JSON, every token, code, nonce and proof replaced by <redacted>.

The proofs are RFC 9449's: typ dpop+jwt, the public jwk, jti, htm, htu (no query), iat, ath
on resource requests, nonce once one was given; ES256 and EdDSA keys made for each run.
"""

import base64
import hashlib
import json
import os
import secrets
import sys
import time
import urllib.parse

import requests
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec, ed25519
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature

VERBOSE = "-v" in sys.argv[1:]
SECRET_FIELDS = {"access_token", "refresh_token", "id_token", "device_code", "user_code", "code", "token",
                 "code_verifier", "client_secret", "verification_uri_complete", "nonce", "jti", "ath"}
failures = 0


def b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def b64json(value):
    return b64(json.dumps(value, separators=(",", ":")).encode())


class Key:
    """A DPoP key: ES256 (P-256) or EdDSA (Ed25519)."""

    def __init__(self, alg):
        self.alg = alg
        if alg == "ES256":
            self.private = ec.generate_private_key(ec.SECP256R1())
            numbers = self.private.public_key().public_numbers()
            self.jwk = {"kty": "EC", "crv": "P-256", "x": b64(numbers.x.to_bytes(32, "big")),
                        "y": b64(numbers.y.to_bytes(32, "big"))}
            members = ("crv", "kty", "x", "y")
        else:
            self.private = ed25519.Ed25519PrivateKey.generate()
            raw = self.private.public_key().public_bytes_raw()
            self.jwk = {"kty": "OKP", "crv": "Ed25519", "x": b64(raw)}
            members = ("crv", "kty", "x")
        canonical = json.dumps({m: self.jwk[m] for m in members}, separators=(",", ":"), sort_keys=True)
        self.thumbprint = b64(hashlib.sha256(canonical.encode()).digest())  # RFC 7638

    def sign(self, data):
        if self.alg == "ES256":
            r, s = decode_dss_signature(self.private.sign(data, ec.ECDSA(hashes.SHA256())))
            return r.to_bytes(32, "big") + s.to_bytes(32, "big")
        return self.private.sign(data)

    def proof(self, htm, htu, access_token=None, nonce=None, iat=None, typ="dpop+jwt", jti=None,
              omit_ath=False, ath=None):
        header = {"typ": typ, "alg": self.alg, "jwk": self.jwk}
        claims = {"jti": jti or b64(secrets.token_bytes(16)), "htm": htm, "htu": htu,
                  "iat": int(time.time()) if iat is None else iat}
        if access_token is not None and not omit_ath:
            claims["ath"] = ath or b64(hashlib.sha256(access_token.encode()).digest())
        if nonce is not None:
            claims["nonce"] = nonce
        signing_input = b64json(header) + "." + b64json(claims)
        return signing_input + "." + b64(self.sign(signing_input.encode()))


def redacted(value):
    if isinstance(value, dict):
        return {k: "<redacted>" if k in SECRET_FIELDS else redacted(v) for k, v in value.items()}
    if isinstance(value, list):
        return [redacted(v) for v in value]
    return value


def claims_of(jwt):
    payload = jwt.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


class Exchange:
    """An answer: status, DPoP-related headers, JSON body (or None)."""

    def __init__(self, response):
        self.status = response.status_code
        self.nonce = response.headers.get("DPoP-Nonce")
        self.challenge = response.headers.get("WWW-Authenticate")
        try:
            self.json = response.json()
        except ValueError:
            self.json = None
        self.text = response.text

    @property
    def error(self):
        return (self.json or {}).get("error") if isinstance(self.json, dict) else None

    def describe(self):
        parts = [str(self.status)]
        if self.error:
            parts.append(f"error={self.error}")
        if isinstance(self.json, dict) and "token_type" in self.json:
            parts.append(f"token_type={self.json['token_type']}")
        if self.nonce is not None:
            parts.append("DPoP-Nonce: <redacted>")
        if self.challenge is not None:
            parts.append(f"WWW-Authenticate: {self.challenge}")
        return " ".join(parts)


class Server:
    def __init__(self, state_dir):
        self.env = {}
        with open(os.path.join(state_dir, "env")) as lines:
            for line in lines:
                name, _, value = line.rstrip("\n").partition("=")
                self.env[name] = value
        self.base = self.env["APP_GLEWLWYD_URL"]
        self.redirect_uri = f"http://127.0.0.1:{self.env['APP_GLEWLWYD_REDIRECT_PORT']}/callback"

    def send(self, method, url, proof=None, authorization=None, data=None, auth=None):
        headers = {}
        if proof is not None:
            headers["DPoP"] = proof
        if authorization is not None:
            headers["Authorization"] = authorization
        answer = Exchange(requests.request(method, url, headers=headers, data=data, auth=auth,
                                           allow_redirects=False, timeout=10))
        if VERBOSE:
            shown = {k: ("<redacted>" if k in SECRET_FIELDS else v) for k, v in (data or {}).items()}
            print(f"    {method} {urllib.parse.urlsplit(url).path} {shown}"
                  f"{' DPoP: <redacted>' if proof else ''}"
                  f"{' Authorization: ' + authorization.split(' ')[0] + ' <redacted>' if authorization else ''}"
                  f" -> {answer.describe()} {json.dumps(redacted(answer.json)) if answer.json is not None else ''}")
        return answer

    # The user's side, as GlewlwydTestUser does it (the login page is a JavaScript application).
    def user(self, client_id, scope):
        browser = requests.Session()
        answer = browser.post(self.base + "/api/auth/", json={"username": self.env["APP_GLEWLWYD_USERNAME"],
                                                              "password": self.env["APP_GLEWLWYD_PASSWORD"]}, timeout=10)
        assert answer.status_code == 200, f"signing the user in answered {answer.status_code}"
        answer = browser.put(f"{self.base}/api/auth/grant/{client_id}", json={"scope": scope}, timeout=10)
        assert answer.status_code == 200, f"granting the scopes answered {answer.status_code}"
        return browser

    def code(self, issuer, dpop_jkt=None, scope="openid conformance"):
        """An authorization code for sdk-browser (PKCE S256) and its verifier."""
        client_id = self.env["APP_GLEWLWYD_BROWSER_CLIENT_ID"]
        browser = self.user(client_id, scope)
        verifier = b64(secrets.token_bytes(32))
        query = {"response_type": "code", "client_id": client_id, "redirect_uri": self.redirect_uri,
                 "scope": scope, "state": b64(secrets.token_bytes(8)), "nonce": b64(secrets.token_bytes(8)),
                 "code_challenge": b64(hashlib.sha256(verifier.encode()).digest()),
                 "code_challenge_method": "S256"}
        if dpop_jkt is not None:
            query["dpop_jkt"] = dpop_jkt
        answer = browser.get(f"{issuer}/auth?{urllib.parse.urlencode(query)}&g_continue",
                             allow_redirects=False, timeout=10)
        location = answer.headers.get("Location", "")
        assert answer.status_code == 302 and location.startswith(self.redirect_uri), \
            f"the authorization URL answered {answer.status_code}"
        params = urllib.parse.parse_qs(urllib.parse.urlsplit(location).query)
        return params["code"][0], verifier

    def code_tokens(self, issuer, key, dpop_jkt=None, nonce=None):
        code, verifier = self.code(issuer, dpop_jkt)
        return self.send("POST", issuer + "/token", key.proof("POST", issuer + "/token", nonce=nonce) if key else None,
                         data=self.code_form(code, verifier))

    def code_form(self, code, verifier):
        return {"grant_type": "authorization_code", "code": code, "code_verifier": verifier,
                "client_id": self.env["APP_GLEWLWYD_BROWSER_CLIENT_ID"], "redirect_uri": self.redirect_uri}

    def refresh_form(self, refresh_token):
        return {"grant_type": "refresh_token", "refresh_token": refresh_token,
                "client_id": self.env["APP_GLEWLWYD_BROWSER_CLIENT_ID"]}

    def service_auth(self):
        return (self.env["APP_GLEWLWYD_SERVICE_CLIENT_ID"], self.env["APP_GLEWLWYD_SERVICE_CLIENT_SECRET"])


def check(name, condition, observed):
    global failures
    if not condition:
        failures += 1
    print(f"{'ok  ' if condition else 'FAIL'} {name}: {observed}")


def bound(answer, key):
    """Whether a token answer is DPoP and its access token carries cnf.jkt = key's thumbprint."""
    if answer.status != 200 or not isinstance(answer.json, dict):
        return False
    return (answer.json.get("token_type") == "DPoP"
            and claims_of(answer.json["access_token"]).get("cnf", {}).get("jkt") == key.thumbprint)


def userinfo(server, issuer, token, key, **proof_options):
    htu = proof_options.pop("htu", issuer + "/userinfo")
    url = proof_options.pop("url", issuer + "/userinfo")
    scheme = proof_options.pop("scheme", "DPoP")
    proof = key.proof("GET", htu, access_token=token, **proof_options) if key else None
    return server.send("GET", url, proof, authorization=f"{scheme} {token}")


def main():
    args = [a for a in sys.argv[1:] if a != "-v"]
    if len(args) != 1:
        print("usage:\n" + "\n".join(__doc__.strip().splitlines()[2:5]), file=sys.stderr)
        return 2
    server = Server(args[0])
    if "APP_GLEWLWYD_DPOP_ISSUER" not in server.env:
        print("glewlwyd-dpop-probe: start glewlwyd with GLEWLWYD_DPOP=1", file=sys.stderr)
        return 2
    if int(server.env["APP_GLEWLWYD_ACCESS_TOKEN_LIFETIME"]) < 30:
        print("glewlwyd-dpop-probe: start glewlwyd with GLEWLWYD_ACCESS_TOKEN_SECONDS=60 (a token is used for many calls)",
              file=sys.stderr)
        return 2
    plain, dpop, nonced = (server.env["APP_GLEWLWYD_ISSUER"], server.env["APP_GLEWLWYD_DPOP_ISSUER"],
                           server.env["APP_GLEWLWYD_DPOP_NONCE_ISSUER"])
    es256, es256b, eddsa = Key("ES256"), Key("ES256"), Key("EdDSA")

    print("# 1. settings")
    metadata = requests.get(dpop + "/.well-known/openid-configuration", timeout=10).json()
    algs = metadata.get("dpop_signing_alg_values_supported", [])
    check("discovery lists dpop_signing_alg_values_supported with ES256 and EdDSA",
          "ES256" in algs and "EdDSA" in algs, " ".join(algs))
    plain_metadata = requests.get(plain + "/.well-known/openid-configuration", timeout=10).json()
    check("without oauth-dpop-allowed discovery has no dpop_signing_alg_values_supported",
          "dpop_signing_alg_values_supported" not in plain_metadata, "absent" if "dpop_signing_alg_values_supported" not in plain_metadata else "present")
    old = server.send("POST", plain + "/token", es256.proof("POST", plain + "/token", iat=int(time.time()) - 2),
                      data={"grant_type": "client_credentials", "scope": "conformance"}, auth=server.service_auth())
    check("without oauth-dpop-allowed a proof is still checked, with a 0 s iat window: 2 s old is refused",
          old.status == 403 and old.error == "invalid_dpop_proof", old.describe())

    tries, bound_plain = 0, None
    while bound_plain is None and tries < 20:
        tries += 1
        now = int(time.time())
        proof = es256.proof("POST", plain + "/token", iat=now)
        if int(time.time()) != now:
            continue
        bound_plain = server.send("POST", plain + "/token", proof, data={"grant_type": "client_credentials", "scope": "conformance"},
                                  auth=server.service_auth())
    check("without oauth-dpop-allowed a proof made in the server's same second is accepted: a DPoP-bound token",
          bound_plain is not None and bound(bound_plain, es256), bound_plain.describe() if bound_plain else "no try")

    print("# 2. grants with a proof")
    for key in (es256, eddsa):
        cc = server.send("POST", dpop + "/token", key.proof("POST", dpop + "/token"),
                         data={"grant_type": "client_credentials", "scope": "conformance"}, auth=server.service_auth())
        check(f"client credentials, {key.alg}: token_type DPoP, access token cnf.jkt the key's thumbprint",
              bound(cc, key), cc.describe())
    cc_bearer = server.send("POST", dpop + "/token", data={"grant_type": "client_credentials", "scope": "conformance"},
                            auth=server.service_auth())
    check("client credentials without a proof: a bearer token (token_type bearer, no cnf)",
          cc_bearer.status == 200 and cc_bearer.json.get("token_type") == "bearer"
          and "cnf" not in claims_of(cc_bearer.json["access_token"]), cc_bearer.describe())

    for key in (es256, eddsa):
        tokens = server.code_tokens(dpop, key)
        check(f"authorization code, {key.alg}: DPoP-bound access token", bound(tokens, key), tokens.describe())
    tokens = server.code_tokens(dpop, es256)
    refresh = tokens.json["refresh_token"]
    other = server.send("POST", dpop + "/token", es256b.proof("POST", dpop + "/token"), data=server.refresh_form(refresh))
    check("refresh with another key's proof is refused", other.status == 403 and other.error == "invalid_dpop_proof",
          other.describe())
    none = server.send("POST", dpop + "/token", data=server.refresh_form(refresh))
    check("refresh without a proof is refused", none.status == 403 and none.error == "invalid_dpop_proof",
          none.describe())
    good = server.send("POST", dpop + "/token", es256.proof("POST", dpop + "/token"), data=server.refresh_form(refresh))
    check("refresh with the key's proof after those two works (they consumed nothing), still bound",
          bound(good, es256), good.describe())
    again = server.send("POST", dpop + "/token", es256.proof("POST", dpop + "/token"),
                        data=server.refresh_form(good.json["refresh_token"]))
    check("the rotated refresh token is bound to the same key", bound(again, es256), again.describe())

    bearer = server.code_tokens(dpop, None)
    check("authorization code without a proof: bearer", bearer.status == 200 and bearer.json.get("token_type") == "bearer",
          bearer.describe())
    late = server.send("POST", dpop + "/token", es256.proof("POST", dpop + "/token"),
                       data=server.refresh_form(bearer.json["refresh_token"]))
    check("a bearer refresh token refreshed with a proof is refused (a proof is not ignored)",
          late.status == 403 and late.error == "invalid_dpop_proof", late.describe())

    device_client = server.env["APP_GLEWLWYD_DEVICE_CLIENT_ID"]
    authorization = server.send("POST", dpop + "/device_authorization",
                                data={"client_id": device_client, "scope": "openid conformance"})
    pending = server.send("POST", dpop + "/token", es256.proof("POST", dpop + "/token"),
                          data={"grant_type": "urn:ietf:params:oauth:grant-type:device_code",
                                "device_code": authorization.json["device_code"], "client_id": device_client})
    check("device grant: polling before approval answers authorization_pending (the proof is not looked at yet)",
          pending.status == 400 and pending.error == "authorization_pending", pending.describe())
    browser = server.user(device_client, "openid conformance")
    approved = browser.get(authorization.json["verification_uri"],
                           params={"code": authorization.json["user_code"], "g_continue": ""},
                           allow_redirects=False, timeout=10)
    assert approved.status_code == 302, f"approving the device code answered {approved.status_code}"
    device = server.send("POST", dpop + "/token", es256.proof("POST", dpop + "/token"),
                         data={"grant_type": "urn:ietf:params:oauth:grant-type:device_code",
                               "device_code": authorization.json["device_code"], "client_id": device_client})
    check("device grant, ES256: DPoP-bound access token", bound(device, es256), device.describe())
    device_refresh = server.send("POST", dpop + "/token", es256b.proof("POST", dpop + "/token"),
                                 data={"grant_type": "refresh_token", "refresh_token": device.json["refresh_token"],
                                       "client_id": device_client})
    check("device grant: its refresh token is bound (another key refused)",
          device_refresh.status == 403, device_refresh.describe())

    print("# 3. userinfo")
    tokens = server.code_tokens(dpop, es256)
    access = tokens.json["access_token"]
    answer = userinfo(server, dpop, access, es256)
    check("DPoP scheme + proof with ath", answer.status == 200 and "sub" in (answer.json or {}), answer.describe())
    answer = userinfo(server, dpop, access, es256, omit_ath=True)
    check("proof without ath: 401 invalid_dpop_proof, no WWW-Authenticate",
          answer.status == 401 and answer.error == "invalid_dpop_proof" and answer.challenge is None, answer.describe())
    answer = userinfo(server, dpop, access, es256, ath=b64(hashlib.sha256(b"another token").digest()))
    check("proof with a wrong ath: 401", answer.status == 401, answer.describe())
    answer = userinfo(server, dpop, access, None)
    check("DPoP scheme without a proof: 401, no body, no WWW-Authenticate",
          answer.status == 401 and answer.challenge is None, answer.describe())
    answer = userinfo(server, dpop, access, es256, scheme="Bearer")
    check("a bound token as Bearer (with a proof): 401", answer.status == 401, answer.describe())
    answer = userinfo(server, dpop, access, es256b)
    check("SECURITY: a proof by ANOTHER key (right ath) is accepted: userinfo does not compare the proof's key "
          "with cnf.jkt", answer.status == 200, answer.describe())
    for label, htu in (("a trailing slash", dpop + "/userinfo/"), ("localhost for 127.0.0.1", dpop.replace("127.0.0.1", "localhost") + "/userinfo"),
                       ("no port", dpop.replace(":" + urllib.parse.urlsplit(dpop).netloc.split(":")[1], "") + "/userinfo"),
                       ("upper-case host", dpop.replace("http://127.0.0.1", "HTTP://127.0.0.1") + "/userinfo")):
        answer = userinfo(server, dpop, access, es256, htu=htu)
        check(f"htu with {label}: refused (htu is compared as a string to external_url + /api/<plugin>/userinfo)",
              answer.status == 401, answer.describe())
    answer = userinfo(server, dpop, access, es256, url=dpop + "/userinfo/", htu=dpop + "/userinfo/")
    check("GET .../userinfo/ with the htu it was sent to: refused (the server expects .../userinfo)",
          answer.status == 401, answer.describe())
    answer = userinfo(server, dpop, access, es256, url=dpop + "/userinfo?x=1")
    check("a query on the request, htu without it: accepted", answer.status == 200, answer.describe())
    answer = userinfo(server, dpop, access, eddsa)
    check("EdDSA proof for an ES256-bound token: accepted too (same gap)", answer.status == 200, answer.describe())
    eddsa_tokens = server.code_tokens(dpop, eddsa)
    answer = userinfo(server, dpop, eddsa_tokens.json["access_token"], eddsa)
    check("EdDSA-bound token with its key's proof", answer.status == 200, answer.describe())

    print("# 4. nonces (oidc-dpop-nonce: oauth-dpop-nonce-mandatory, counter "
          f"{os.environ.get('GLEWLWYD_DPOP_NONCE_COUNTER', '3')})")
    cc_form = {"grant_type": "client_credentials", "scope": "conformance"}
    first = server.send("POST", nonced + "/token", es256.proof("POST", nonced + "/token"), data=cc_form, auth=server.service_auth())
    check("token endpoint, proof without a nonce: 400 use_dpop_nonce with DPoP-Nonce",
          first.status == 400 and first.error == "use_dpop_nonce" and first.nonce, first.describe())
    retry = server.send("POST", nonced + "/token", es256.proof("POST", nonced + "/token", nonce=first.nonce),
                        data=cc_form, auth=server.service_auth())
    check("the retry with that nonce works", bound(retry, es256), retry.describe())
    unproven = server.send("POST", nonced + "/token", data=cc_form, auth=server.service_auth())
    check("no proof at all: a bearer token (nonces bind nothing without a proof)",
          unproven.status == 200 and unproven.json.get("token_type") == "bearer", unproven.describe())
    tokens = server.code_tokens(nonced, es256)
    check("authorization code, proof without a nonce: 400 use_dpop_nonce (same nonce: it is per client)",
          tokens.status == 400 and tokens.error == "use_dpop_nonce", tokens.describe())
    nonce = tokens.nonce
    tokens = server.code_tokens(nonced, es256, nonce=nonce)
    check("authorization code with the nonce: bound", bound(tokens, es256), tokens.describe())
    if tokens.nonce:
        nonce = tokens.nonce
    access = tokens.json["access_token"]
    answer = userinfo(server, nonced, access, es256)
    check("userinfo, proof without a nonce: 401 WWW-Authenticate DPoP error=use_dpop_nonce with DPoP-Nonce",
          answer.status == 401 and answer.nonce and "use_dpop_nonce" in (answer.challenge or ""), answer.describe())
    nonce = answer.nonce
    rotations, accepted = 0, 0
    for _ in range(8):
        answer = userinfo(server, nonced, access, es256, nonce=nonce)
        if answer.status == 200:
            accepted += 1
        if answer.nonce and answer.nonce != nonce:
            rotations += 1
            nonce = answer.nonce
    check("8 userinfo calls, each with the latest DPoP-Nonce seen: all accepted, the nonce rotating on some 200s",
          accepted == 8 and rotations >= 1, f"{accepted} accepted, {rotations} new nonces on 200s")
    refresh = tokens.json["refresh_token"]
    challenged = server.send("POST", nonced + "/token", es256.proof("POST", nonced + "/token"), data=server.refresh_form(refresh))
    check("refresh, proof without a nonce: 400 use_dpop_nonce", challenged.status == 400 and challenged.error == "use_dpop_nonce",
          challenged.describe())
    refreshed = server.send("POST", nonced + "/token", es256.proof("POST", nonced + "/token", nonce=challenged.nonce),
                            data=server.refresh_form(refresh))
    check("the same one-use refresh token again with the nonce: works (the challenge consumed nothing)",
          bound(refreshed, es256), refreshed.describe())
    nonce = refreshed.nonce or challenged.nonce
    stale = userinfo(server, nonced, access, es256, nonce="not-the-nonce")
    check("a stale nonce: 401 use_dpop_nonce with the current one", stale.status == 401 and stale.nonce,
          stale.describe())

    print("# 5. dpop_jkt")
    code, verifier = server.code(dpop, dpop_jkt=es256.thumbprint)
    wrong = server.send("POST", dpop + "/token", es256b.proof("POST", dpop + "/token"), data=server.code_form(code, verifier))
    check("code bound by dpop_jkt, token request with another key: 403 invalid_dpop_proof",
          wrong.status == 403 and wrong.error == "invalid_dpop_proof", wrong.describe())
    missing = server.send("POST", dpop + "/token", data=server.code_form(code, verifier))
    check("the same code without a proof: 403 invalid_dpop_proof", missing.status == 403 and missing.error == "invalid_dpop_proof",
          missing.describe())
    right = server.send("POST", dpop + "/token", es256.proof("POST", dpop + "/token"), data=server.code_form(code, verifier))
    check("the same code with the dpop_jkt key: bound (the refused attempts did not use the code)",
          bound(right, es256), right.describe())
    code, verifier = server.code(plain, dpop_jkt=es256.thumbprint)
    ignored = server.send("POST", plain + "/token", data=server.code_form(code, verifier))
    check("without oauth-dpop-allowed dpop_jkt is ignored: a bearer token without a proof",
          ignored.status == 200 and ignored.json.get("token_type") == "bearer", ignored.describe())

    print("# 6. revocation and RFC 9449 details")
    tokens = server.code_tokens(dpop, es256)
    revoke = server.send("POST", dpop + "/revoke", es256.proof("POST", dpop + "/revoke"),
                         data={"token": tokens.json["refresh_token"], "token_type_hint": "refresh_token",
                               "client_id": server.env["APP_GLEWLWYD_BROWSER_CLIENT_ID"]})
    check("revocation by a public client (client_id, a proof): 401", revoke.status == 401, revoke.describe())
    cc = server.send("POST", dpop + "/token", es256.proof("POST", dpop + "/token"), data=cc_form, auth=server.service_auth())
    revoke = server.send("POST", dpop + "/revoke", data={"token": cc.json["access_token"], "token_type_hint": "access_token"},
                         auth=server.service_auth())
    introspect = server.send("POST", dpop + "/introspect", data={"token": cc.json["access_token"]}, auth=server.service_auth())
    check("revocation of a DPoP-bound token by its confidential client, no proof: 200, then inactive",
          revoke.status == 200 and introspect.json.get("active") is False, f"{revoke.describe()}; introspect active={introspect.json.get('active')}")
    tokens = server.code_tokens(dpop, es256)
    access = tokens.json["access_token"]
    now = int(time.time())
    for label, options, expected in (("iat 50 s old", {"iat": now - 50}, 200), ("iat 70 s old", {"iat": now - 70}, 401),
                                     ("iat 3 s ahead", {"iat": now + 3}, 200), ("iat 30 s ahead", {"iat": now + 30}, 401),
                                     ("typ JWT", {"typ": "JWT"}, 401), ("typ application/dpop+jwt", {"typ": "application/dpop+jwt"}, 200)):
        answer = userinfo(server, dpop, access, es256, **options)
        check(f"{label}: {expected}", answer.status == expected, answer.describe())
    jti = b64(secrets.token_bytes(16))
    first = userinfo(server, dpop, access, es256, jti=jti)
    replay = userinfo(server, dpop, access, es256, jti=jti)
    check("a jti used twice: the second refused (401, no body)", first.status == 200 and replay.status == 401,
          f"{first.describe()}, then {replay.describe()}")
    print(f"# {failures} unexpected" if failures else "# all as documented")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
