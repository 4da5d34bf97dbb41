"""Kuhn poker (H. W. Kuhn 1950), two players, hidden information: the worked example of adding
a game (docs/add-a-game.md). Rules: :mod:`.rules` (pure functions over :class:`.rules.Hand`);
the game on the one interface: :class:`.game.KuhnPokerGame`. Source: kuhn-wp
(``spec/kuhn_poker/sources/kuhn-wp.toml``)."""
