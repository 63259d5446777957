"""The core: what kbg knows without knowing any game.

Rule data (finding, strict YAML reading, schemas, editions and variants as patches), log files
(splitting games, headers, tokens), reports and diagnostics, the setup sheet's shape, and the
registry through which each game's package plugs in. Nothing here imports a game package.
"""
