"""Liar's Dice (the "single hand" game of the English Wikipedia article, source ld-wp), 2..6
players with hidden dice: the worked example of adding a game (docs/add-a-game.md). Rules:
:mod:`.rules` (pure functions over :class:`.rules.Table`); the game on the one interface:
:class:`.game.LiarsDiceGame`. Data: ``spec/liars_dice/``."""
