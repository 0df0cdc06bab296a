// $comment$
$head$
  $body$
});
