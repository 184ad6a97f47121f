"""Parlor's game engine: rules, records and AI for Hachinin Meri, Tractor and Chắn.

Pure Python; imports nothing from ui/, hardware/, device/ or kivy.
"""

__version__ = "0.1.0"
