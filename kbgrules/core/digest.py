"""Digests for caches and compiled data, without importing :mod:`hashlib` on start-up paths: hashlib loads
OpenSSL (about 3 ms), while the interpreter's own blake2 and sha256 modules load in a tenth of that. The
digests are hashlib's, byte for byte; a Python built without those modules gets them from hashlib."""

from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from hashlib import _Hash


def blake2b(data: bytes, digest_size: int) -> str:
    """``hashlib.blake2b(data, digest_size=digest_size).hexdigest()``."""
    try:
        from _blake2 import blake2b as new
    except ImportError:  # pragma: no cover - a build without the builtin hashes
        from hashlib import blake2b as new
    return new(data, digest_size=digest_size).hexdigest()


def sha256(data: bytes = b"") -> _Hash:
    """``hashlib.sha256(data)``."""
    try:
        if sys.version_info >= (3, 12):
            from _sha2 import sha256 as new
        else:
            from _sha256 import sha256 as new  # type: ignore[import-not-found]
    except ImportError:  # pragma: no cover - a build without the builtin hashes
        from hashlib import sha256 as new
    return new(data)  # type: ignore[no-any-return]
