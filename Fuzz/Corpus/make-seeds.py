#!/usr/bin/env python3
"""Writes the seed corpora under Fuzz/Corpus/<target>/ (committed; run again only to change them).

Small, real inputs: RFC examples, what the reference server and django-oauth-toolkit answer,
what the unit tests use. Each target's first byte, where it has one, selects a mode (see the
target's doc comment). The encrypted seeds are sealed with the fixed key of the
encrypted-store target through libsodium (ctypes), as EncryptedFileFormat lays them out.
"""
import base64, ctypes, ctypes.util, hashlib, json, os, pathlib, struct

root = pathlib.Path(__file__).resolve().parent

def write(target, name, data):
    folder = root / target
    folder.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    (folder / name).write_bytes(data)

def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()

def jwt(payload):
    return b64url(b'{"alg":"RS256","typ":"JWT"}') + "." + b64url(json.dumps(payload).encode()) + ".c2ln"

# JWT payload reader: odd first byte = payload JSON, even = whole token.
write("jwt-payload", "payload-exp-iat-sub", b"\x01" + b'{"sub":"42","exp":1750000900,"iat":1750000000,"sid":"s-1"}')
write("jwt-payload", "payload-fractional", b"\x01" + b'{"sub":7,"exp":1750000900.5,"iat":1750000000.25}')
write("jwt-payload", "payload-no-sub", b"\x01" + b'{"exp":1750000900,"scope":"read write"}')
write("jwt-payload", "token-rs256", b"\x00" + jwt({"sub": "member-1", "exp": 1750000900, "iat": 1750000000}).encode())
write("jwt-payload", "token-opaque", b"\x00" + b"2YotnFZFEjr1zCsicMWpAA")

# WWW-Authenticate (RFC 6750 §3 examples, RFC 9110 §11.6.1).
for name, header in [
    ("rfc6750-realm", 'Bearer realm="example"'),
    ("rfc6750-invalid-token", 'Bearer realm="example", error="invalid_token", error_description="The access token expired"'),
    ("rfc6750-scope", 'Bearer error="insufficient_scope", scope="read write"'),
    ("list", 'Basic realm="x", Bearer error="invalid_token"'),
    ("rfc9110-list", 'Newauth realm="apps", type=1, title="Login to \\"apps\\"", Basic realm="simple"'),
    ("token68", "Bearer abc=="),
    ("bare", "Bearer"),
    # RFC 9470's step-up challenge (its §3 example), and one in both schemes.
    ("rfc9470-acr-values", 'Bearer error="insufficient_user_authentication", error_description="A different authentication level is required", acr_values="myACR"'),
    ("rfc9470-bearer-and-dpop", 'Bearer error="insufficient_user_authentication", max_age=5, DPoP error="insufficient_user_authentication", acr_values="urn:example:mfa phr", max_age="5"'),
]:
    write("www-authenticate", name, header)

# Error bodies: first byte odd adds a Bearer challenge; status 400 + byte % 100.
for name, body in [
    ("app-invalid-refresh", '{"error":{"code":"invalid_refresh_token","message":"The refresh token is not valid."}}'),
    ("app-reused", '{"error":{"code":"refresh_token_reused","message":null}}'),
    ("rfc6749-invalid-grant", '{"error":"invalid_grant","error_description":"Invalid credentials given."}'),
    ("dot-invalid-client", '{"error": "invalid_client"}'),
    ("drf-token-not-valid", '{"detail":"Given token not valid for any token type","code":"token_not_valid"}'),
    ("generic", '{"error":"Unauthorized"}'),
]:
    write("error-body", name, b"\x01" + body.encode())
write("error-body", "with-challenge", b"\x02" + b'{"error":"Unauthorized"}')

# Retry-After (RFC 9110 §10.2.3).
for name, header in [("seconds", "120"), ("date", "Fri, 31 Dec 1999 23:59:59 GMT"), ("date-2015", "Wed, 21 Oct 2015 07:28:00 GMT"),
                     ("huge", "9223372036854775808"), ("padded", " 30 ")]:
    write("retry-after", name, header)

# RFC 3339 dates (RFC 3339 §5.8 examples, the reference server's form, offsets, fractions).
for name, text in [("utc", "2026-11-22T10:00:00Z"), ("rfc3339-fraction", "1985-04-12T23:20:50.52Z"),
                   ("rfc3339-offset", "1996-12-19T16:39:57-08:00"), ("leap-second", "1990-12-31T23:59:60Z"),
                   ("offset-no-colon", "2026-11-22T10:00:00+0200"), ("nanoseconds", "2026-11-22T10:00:00.123456789+05:30"),
                   ("lower-case", "2026-11-22t10:00:00z"), ("leap-day", "2024-02-29T00:00:00Z"),
                   ("finding-nanoseconds-after-2240", "2526-11-22T10:00:00.123456789+05:30")]:
    write("rfc3339-date", name, text)

# Token responses: first byte < 200 = status 200.
app = '{"tokens":{"accessToken":"eyJ.a.b","refreshToken":"rt-2","tokenType":"Bearer","expiresIn":900,"expiresAt":"2026-11-22T10:15:00Z"}}'
oauth = '{"access_token":"2YotnFZFEjr1zCsicMWpAA","token_type":"Bearer","expires_in":3600,"refresh_token":"tGzv3JOkF0XG5Qx2TlKWIA","scope":"read"}'
dot = '{"access_token": "kLq1", "expires_in": 36000, "token_type": "Bearer", "scope": "read write", "refresh_token": "8Hq2"}'
dotted = '{"data":{"tokens":{"access":"at-1","refresh":"rt-2"},"expiresIn":"900"}}'
for name, body in [("app", app), ("rfc6749", oauth), ("dot", dot), ("dotted", dotted),
                   ("no-refresh", '{"access_token":"a","token_type":"Bearer","expires_in":"3600"}')]:
    write("token-response", name, b"\x00" + body.encode())
write("token-response", "app-401", b"\xc9" + b'{"error":{"code":"invalid_refresh_token","message":"rt-SENT"}}')
write("token-response", "oauth-400", b"\xc8" + b'{"error":"invalid_grant","error_description":"Invalid refresh token"}')
# A live token in a 200 that is no JSON object (issue 33): form-encoded, trailing bytes, nested deep.
for name, body in [("form-encoded", "access_token=@@&token_type=Bearer&expires_in=3600"),
                   ("trailing-bytes", '{"access_token":"@@","token_type":"Bearer"} trailing'),
                   ("nested-deep", "[" * 600 + '"@@"' + "]" * 600),
                   ("token-type-mac", '{"access_token":"@@","token_type":"mac","refresh_token":"@@"}')]:
    write("token-response", name, b"\x00" + body.encode())

# Plain store files (FileTokenStore's JSON).
plain = '{"credentials":{"accessToken":"at-1","refreshToken":"rt-1","memberID":"42","accessTokenExpiresAt":785001600,"accessTokenIssuedAt":785000700},"version":1}'
write("plain-store", "file", plain)
write("plain-store", "file-minimal", '{"credentials":{"accessToken":"a","refreshToken":"r","memberID":"m"},"version":1}')
write("plain-store", "version-2", '{"version":2}')

# Format version 2 (a DPoP key beside the tokens): first byte even = a whole file, odd = the
# dpopKey member only. RFC 8037's Ed25519 key; RFC 9449's P-256 public key for se and ref.
ed_d, ed_x = "nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A", "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"
ec_x, ec_y = "l8tFrhx-34tV3hRICRDY9zCkDlpBhF42UQUfWVAWBFs", "9VE4jf_Ok_o64zbTTlcuNJajHmt6v9TDVrU0CdvGRDA"
ed_key = '{"alg":"EdDSA","d":"%s","jwk":{"crv":"Ed25519","kty":"OKP","x":"%s"}}' % (ed_d, ed_x)
se_key = '{"alg":"ES256","se":"%s","jwk":{"crv":"P-256","kty":"EC","x":"%s","y":"%s"}}' % (b64url(bytes(range(160))), ec_x, ec_y)
ref_key = '{"alg":"ES256","ref":"com.example.app/key-1","jwk":{"crv":"P-256","kty":"EC","x":"%s","y":"%s"}}' % (ec_x, ec_y)
def v2(key):
    return '{"credentials":{"accessToken":"a1","accessTokenType":"DPoP","dpopKey":%s,"memberID":"42","refreshToken":"r1"},"version":2}' % key
write("dpop-store", "file-eddsa", b"\x00" + v2(ed_key).encode())
write("dpop-store", "file-se", b"\x00" + v2(se_key).encode())
write("dpop-store", "file-bearer-v1", b"\x00" + plain.encode())
write("dpop-store", "key-eddsa", b"\x01" + ed_key.encode())
write("dpop-store", "key-ref", b"\x01" + ref_key.encode())
write("dpop-store", "key-es256-d", b"\x01" + ('{"alg":"ES256","d":"%s","jwk":{"crv":"P-256","kty":"EC","x":"%s","y":"%s"}}' % (ed_d, ec_x, ec_y)).encode())

# Encrypted store: sealed with the encrypted-store target's key (bytes (i*7+3) & 0xFF).
sodium = ctypes.CDLL(ctypes.util.find_library("sodium"))
assert sodium.sodium_init() >= 0
key = bytes((i * 7 + 3) & 0xFF for i in range(32))

def seal(plaintext, ad, nonce, key):
    out = ctypes.create_string_buffer(len(plaintext) + 16)
    out_len = ctypes.c_ulonglong(0)
    sodium.crypto_aead_xchacha20poly1305_ietf_encrypt(out, ctypes.byref(out_len), plaintext, ctypes.c_ulonglong(len(plaintext)),
                                                      ad, ctypes.c_ulonglong(len(ad)), None, nonce, key)
    return out.raw[:out_len.value]

magic = bytes([0x89, 0x54, 0x4B, 0x53, 0x0D, 0x0A, 0x1A, 0x0A])
def header(version, kdf=0, ops=0, mem=0, salt=bytes(16)):
    return magic + bytes([version, kdf]) + struct.pack("<QQ", ops, mem) + salt

nonce = hashlib.sha256(b"nonce").digest()[:24]
h1 = header(1)
write("encrypted-store", "sealed-v1", b"\x00" + h1 + nonce + seal(plain.encode(), h1, nonce, key))
h2 = header(2)
write("encrypted-store", "sealed-v2-bound", b"\x00" + h2 + nonce + seal(plain.encode(), h2 + b"fuzz-binding", nonce, key))
write("encrypted-store", "argon2-header", b"\x00" + header(1, 1, 2, 67108864, bytes(range(16))) + nonce + bytes(16))
write("encrypted-store", "truncated", b"\x00" + h1 + nonce[:10])
write("encrypted-store", "plain-given", b"\x00" + plain.encode())
write("encrypted-store", "json-inside", b"\x80" + plain.encode())

# Sealed box: key (32), nonce (24), associated-data length, associated data, sealed bytes.
ad = b"header"
write("sealed-box", "valid-box", b"\x00" + key + nonce + bytes([len(ad)]) + ad + seal(b"hello", ad, nonce, key))
write("sealed-box", "short-nonce", b"\x8c" + key + nonce[:12])

# Query and path: fields split by 0x00, parts by 0x01 (see the target).
write("query-path", "posts", b"v1\x01posts\x0142\x00" + b"\x00id\x015" + b"\x00\x06id\x011\x012\x01a b,c" + b"\x00\x07createdAt" + b"\x00\x87id")
write("query-path", "unicode", "v1\x01caf\u00e9 & co/\u00e9\x00\x01title\x01\u00e9t\u00e9 \"quoted\"".encode())

# Discovery documents: first byte even = fetched over https.
dot_doc = {"issuer": "https://issuer.example.com", "authorization_endpoint": "https://issuer.example.com/o/authorize/",
           "token_endpoint": "https://issuer.example.com/o/token/", "userinfo_endpoint": "https://issuer.example.com/o/userinfo/",
           "jwks_uri": "https://issuer.example.com/o/.well-known/jwks.json", "response_types_supported": ["code", "token"],
           "code_challenge_methods_supported": ["plain", "S256"], "grant_types_supported": ["authorization_code", "refresh_token"],
           "token_endpoint_auth_methods_supported": ["client_secret_post", "client_secret_basic"],
           "revocation_endpoint": "https://issuer.example.com/o/revoke_token/"}
write("discovery", "dot", b"\x00" + json.dumps(dot_doc).encode())
rfc8414 = {"issuer": "http://127.0.0.1:8000", "token_endpoint": "http://127.0.0.1:8000/token",
           "device_authorization_endpoint": "http://127.0.0.1:8000/device", "scopes_supported": ["openid", "profile"]}
write("discovery", "http-loopback", b"\x01" + json.dumps(rfc8414).encode())
elsewhere = dict(rfc8414, token_endpoint="http://192.0.2.2:8000/token", revocation_endpoint="https://127.0.0.1:99999/revoke")
write("discovery", "http-elsewhere", b"\x01" + json.dumps(elsewhere).encode())

# Device authorization (RFC 8628 §3.2): first byte < 224 = status 200.
write("device-authorization", "rfc8628", b"\x00" + json.dumps({
    "device_code": "GmRhmhcxhwAzkoEqiMEg_DnyEysNkuNhszIySk9eS", "user_code": "WDJB-MJHT",
    "verification_uri": "https://example.com/device", "verification_uri_complete": "https://example.com/device?user_code=WDJB-MJHT",
    "expires_in": 1800, "interval": 5}).encode())
write("device-authorization", "google-style", b"\x00" + b'{"device_code":"d","user_code":"u","verification_url":"https://x.test/d","expires_in":"1800","interval":1e400}')
write("device-authorization", "error", b"\xe0" + b'{"error":"invalid_client"}')

# ID tokens: odd first byte = payload; bit 1 sends the nonce.
claims = {"iss": "https://issuer.example.com", "sub": "248289761001", "aud": "fuzz-client", "nonce": "n-0S6_WzA2Mj-fuzz-nonce",
          "exp": 1750000600, "iat": 1750000000}
write("id-token", "valid-with-nonce", b"\x03" + json.dumps(claims).encode())
write("id-token", "several-audiences", b"\x01" + json.dumps({**claims, "aud": ["fuzz-client", "other"], "azp": "fuzz-client"}).encode())
write("id-token", "token-text", b"\x00" + jwt(claims).encode())

# Loopback redirect requests (a browser's, and what else can reach the port).
write("loopback-request", "callback", "GET /callback?code=SplxlOBeZQQYbYS6WxSbIA&state=fuzz-state HTTP/1.1\r\nHost: 127.0.0.1\r\n"
      "User-Agent: Mozilla/5.0\r\nAccept: text/html\r\n\r\n")
write("loopback-request", "error", "GET /callback?error=access_denied&state=fuzz-state HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
write("loopback-request", "favicon", "GET /favicon.ico HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
write("loopback-request", "post", "POST /callback HTTP/1.1\r\nContent-Length: 0\r\n\r\n")
write("loopback-request", "lf-only", "GET /callback?code=x HTTP/1.0\n\n")
write("loopback-request", "partial", "GET /callback?code=x HTTP/1.1\r\nHost: 1")
# A head over the listener's 8 KiB limit (431): libFuzzer grows inputs slowly, so it starts here.
write("loopback-request", "oversized", "GET /callback?code=x HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: " + "a" * 8300 + "\r\n\r\n")
