"""The web board: the JSON API, the live hub and (from the frontend) the pages."""
