"""What the pages show, in words and pictures: the Tipp's and the review's words, the
charts, QR codes, share links and the page language."""
