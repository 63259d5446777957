"""Python hooks for King of Tokyo Power Up! evolution cards (see kbgrules.kot_hooks)."""

from __future__ import annotations

from .kot_hooks import Hook

HOOKS: dict[str, Hook] = {}
