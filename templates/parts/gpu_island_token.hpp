$const$$elem$* $port$;
