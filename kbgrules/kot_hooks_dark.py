"""Python hooks for King of Tokyo Dark Edition cards and wickedness tiles (see kbgrules.kot_hooks)."""

from __future__ import annotations

from .kot_hooks import Hook

HOOKS: dict[str, Hook] = {}
