"""Each of Parlor's games' descriptor (`engine.descriptor.GameInfo`), one light module per game
(`INFO`), found by `engine.registry`: a module here is a game Parlor plays. No module here imports
its game or the AI (the home screen reads titles and lengths at start-up without a game)."""
