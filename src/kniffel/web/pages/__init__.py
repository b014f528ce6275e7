"""The board's HTML pages and fragments: the start page, the Tafel and its form posts, the
game review, the players' pages, their charts and the CSV downloads."""
