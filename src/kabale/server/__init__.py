"""The web game: Starlette app (app.py), live games (games.py), launcher (launch.py), page."""
