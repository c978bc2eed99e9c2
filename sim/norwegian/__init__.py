"""Norwegian whist (RULES.md §2): work in progress (issue 5). Only the scoring exists so far; the
game is not registered, so no preset or experiment can ask for it yet."""
