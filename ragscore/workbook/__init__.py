"""The workbook's logic (exercise checks, widget logic) and widget wiring."""
