"""The board without HTTP: the game service, what it shows of a game, bot seats and the live hub.

The web layer (:mod:`kniffel.web`) and the command line both use it.
"""
