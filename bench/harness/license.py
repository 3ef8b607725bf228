"""The development licence for the bench scripts: a Pro licence signed with
the committed development key (tests/fixtures/dev-license.seed), as
crates/test-support's dev_license(None) makes it; only debug builds accept it.
Ed25519 signing (RFC 8032 section 6) in pure Python.

Part of bench/harness (see its docstring); not run on its own.
"""

from __future__ import annotations

import base64
import hashlib
import json

from .common import ROOT

DEV_SEED = ROOT / "tests/fixtures/dev-license.seed"

_P = 2**255 - 19
_Q = 2**252 + 27742317777372353535851937790883648493
_D = -121665 * pow(121666, _P - 2, _P) % _P
_SQRT_M1 = pow(2, (_P - 1) // 4, _P)


def _add(a, b):
    x = (a[1] - a[0]) * (b[1] - b[0]) % _P
    y = (a[1] + a[0]) * (b[1] + b[0]) % _P
    c = 2 * a[3] * b[3] * _D % _P
    d = 2 * a[2] * b[2] % _P
    e, f, g, h = y - x, d - c, d + c, y + x
    return (e * f, g * h, f * g, e * h)


def _mul(scalar, point):
    result = (0, 1, 1, 0)
    while scalar > 0:
        if scalar & 1:
            result = _add(result, point)
        point = _add(point, point)
        scalar >>= 1
    return result


def _recover_x(y, sign):
    x2 = (y * y - 1) * pow(_D * y * y + 1, _P - 2, _P)
    x = pow(x2, (_P + 3) // 8, _P)
    if (x * x - x2) % _P:
        x = x * _SQRT_M1 % _P
    if (x & 1) != sign:
        x = _P - x
    return x


_GY = 4 * pow(5, _P - 2, _P) % _P
_GX = _recover_x(_GY, 0)
_G = (_GX, _GY, 1, _GX * _GY % _P)


def _compress(point):
    zinv = pow(point[2], _P - 2, _P)
    x, y = point[0] * zinv % _P, point[1] * zinv % _P
    return int.to_bytes(y | ((x & 1) << 255), 32, "little")


def ed25519_sign(seed: bytes, message: bytes) -> bytes:
    digest = hashlib.sha512(seed).digest()
    a = int.from_bytes(digest[:32], "little")
    a &= (1 << 254) - 8
    a |= 1 << 254
    public = _compress(_mul(a, _G))
    r = int.from_bytes(hashlib.sha512(digest[32:] + message).digest(), "little") % _Q
    big_r = _compress(_mul(r, _G))
    h = int.from_bytes(hashlib.sha512(big_r + public + message).digest(), "little") % _Q
    return big_r + int.to_bytes((r + h * a) % _Q, 32, "little")


def dev_license(licensee: str) -> dict:
    """As crates/test-support's dev_license(None): a Pro licence signed with the
    development key (debug builds only), for `POST /ui/license`."""
    seed = bytes.fromhex(DEV_SEED.read_text().strip())
    payload = json.dumps({"issued_at": 1_700_000_000_000, "licensee": licensee, "plan": "pro"},
                         separators=(",", ":")).encode()
    b64 = lambda raw: base64.urlsafe_b64encode(raw).rstrip(b"=").decode()
    return {"payload": b64(payload), "signature": b64(ed25519_sign(seed, payload))}
