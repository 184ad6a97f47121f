"""Research and measurement tools for the bots: the arena and its tables, the training of the
learned evaluations and the Chắn studies. They import the runtime AI (`engine.ai`); nothing of the
runtime, the app or the phone server imports them (tests/test_import_graph.py). Reached from
`python -m engine arena|study` and `python -m engine.ai.tools.train`."""
