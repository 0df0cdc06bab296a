if (run.overlap) {
  $overlap$
} else {
  $no_overlap$
}
