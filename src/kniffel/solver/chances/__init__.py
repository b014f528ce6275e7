"""Final-score distributions and win chances (docs/solver.md, "Win chances").

- :mod:`.distribution`: one player's final total when they play on with the
  best bot: seeded batch simulation from their sheet, and the bot's own
  noise-free expectation.
- :mod:`.moments`: the exact mean and variance of the final total in
  one-column presets, carried through the solver's recursion.
- :mod:`.win`: each player's chance to finish first (ties shared) from
  independent distributions.
- :mod:`.forecast`: what the board, the API and the CLI show for a game.
"""
