"""Showing results: text formatting, output formats (text, Markdown, CSV, HTML, JSON), plots."""
