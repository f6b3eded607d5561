/**
 * A statement sent now whose promise is awaited later. The statements of one transaction run on its one
 * connection in the order they were called, each once the one before it is done. The connection is in
 * pipeline mode (database.factory.ts): a statement called before the previous one's answer arrived is
 * written at once, so the two share a round trip, and no turn of the event loop (which, in a busy process,
 * queues behind other requests' work while the transaction holds its locks) comes between them. Until it
 * is awaited, its failure is not an unhandled rejection; whoever awaits it gets that failure.
 */
export function awaitedLater<T>(statement: Promise<T>): Promise<T> {
  statement.catch(ignoreUntilAwaited);
  return statement;
}

function ignoreUntilAwaited(): void {}
