import type { ListOwnerRoutesUseCase, OwnerRouteView, UpdateOwnerRouteUseCase } from '@ledger/reconciliation';
import type { z } from 'zod';
import { type Assert, type Same, pageOf } from '../components';
import { ownerRouteView } from './reconciliation.views';

export const ownerRoutePage = pageOf('OwnerRoutePage', ownerRouteView, 'Owner routes in the order they apply.');

type Output<Schema extends z.ZodType> = z.output<Schema>;
type Answer<Method extends (...args: never[]) => unknown> = Awaited<ReturnType<Method>>;
export type OwnerRouteViewsMatch = [
  Assert<Same<OwnerRouteView, Output<typeof ownerRouteView>>>,
  Assert<Same<Answer<UpdateOwnerRouteUseCase['execute']>, Output<typeof ownerRouteView>>>,
  Assert<Same<Answer<ListOwnerRoutesUseCase['execute']>, Output<typeof ownerRoutePage>>>,
];
