package pq

// OpenWithDriver is open, for the external tests.
var OpenWithDriver = open
