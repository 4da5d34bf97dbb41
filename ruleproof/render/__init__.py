"""Pictures of boards and positions (SVG) and step-through pages (HTML) for both games.

Presentation only: nothing here is part of the rules. Layering: this package sits above
``ruleproof.properties`` (it replays scenarios and traces with their loaders) and below the CLI.

* :mod:`ruleproof.render.svg` -- keyed SVG elements (:data:`Picture`) and documents;
* :mod:`ruleproof.render.dawn_under`, :mod:`ruleproof.render.dracula` -- boards and positions,
  per view (everything, or what one player may know);
* :mod:`ruleproof.render.walk` -- games as sequences of frames (scenarios, traces, random play);
* :mod:`ruleproof.render.page` -- a self-contained HTML page stepping through walks.
"""
