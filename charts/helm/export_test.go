package helm

// SortViolations is sortViolations, for the tests comparing Helm's own
// schema errors with Render's.
var SortViolations = sortViolations
