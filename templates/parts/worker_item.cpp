$head$  // $comment$
  $body$
});
