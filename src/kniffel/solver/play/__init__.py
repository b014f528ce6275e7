"""Playing: the bots, many solitaire sheets as arrays, and seeded simulation."""
