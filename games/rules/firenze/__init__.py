"""Firenze, the board game: everything this site knows about it lives in this app.

`firenze.rules` is the pure-Python engine (no Django import); the rest is its web face:
presenters that turn a player view into page context, the rules page, the score sheet, the
board templates and stylesheet, and the engine adapter the platform talks to.
"""
