"""Files: dataset folders on disk and the course data shipped with the package."""
