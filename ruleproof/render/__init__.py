"""Step-through pages for every game: walks (games as sequences of frames) and a
self-contained HTML page.

Presentation only: nothing here is part of the rules. Layering: this package sits above
``ruleproof.properties`` (it replays scenarios and traces with their loaders) and below the CLI.
The pictures of a game's positions are the capability ``render`` of its plugin record
(:mod:`ruleproof.properties.render`, drawn with :mod:`ruleproof.properties.render.svg`; the
games' renderers are ``properties/<game>/render.py``).

* :mod:`ruleproof.render.walk` -- games as sequences of frames (scenarios, traces, random play),
  one builder for every game;
* :mod:`ruleproof.render.page` -- a self-contained HTML page stepping through walks.
"""
