/**
 * A statement sent now whose promise is awaited later. The statements of one transaction run on its one
 * connection in the order they were called, each once the one before it is done, so a statement called
 * before the previous one's promise is awaited is sent by the connection itself the moment that one
 * ends, without waiting for a turn of the event loop (which, in a busy process, queues behind other
 * requests' work while the transaction holds its locks). Until it is awaited, its failure is not an
 * unhandled rejection; whoever awaits it gets that failure.
 */
export function awaitedLater<T>(statement: Promise<T>): Promise<T> {
  statement.catch(ignoreUntilAwaited);
  return statement;
}

function ignoreUntilAwaited(): void {}
