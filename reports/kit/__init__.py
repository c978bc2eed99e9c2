"""The report kit: what every study's report is made of, whatever the game.

- `cells`: how a table's cells read (estimates with their 95% intervals);
- `tables`: a table view (rows, columns, formats) laid out, long tables shortened;
- `figures`: figures of bounded size with legends outside the data, and their drawing;
- `page`: the page as a value, rendered by the Jinja2 templates of ``templates/``;
- `hands`: a hand drawn as a card diagram from its record (HTML, by the templates);
- `run`: what a report says of its run; `study`: the shape of a study, made into a page.

The kit knows no game: the studies (`reports.studies`) use it."""
