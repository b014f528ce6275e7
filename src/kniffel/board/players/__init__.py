"""Players across games: statistics, the leaderboard, the bot as yardstick, export."""
