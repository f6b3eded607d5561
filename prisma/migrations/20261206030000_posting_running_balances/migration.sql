-- A posting write now numbers each entry's account version and posted balance after from the account
-- rows as it updates them, and checks every non-negative account's available balance after each item
-- of the write, not only after the last (the accounts' CHECK sees only the final totals). A batch plans
-- its items on accounts read before it locks them; if another posting moved those accounts meanwhile so
-- that an item would no longer pass, the write fails with LG004 and the batch is planned again under the
-- locks. The write calls this function once, on every item's check together.
CREATE FUNCTION ledger_assert_planned_balances_hold(p_hold boolean) RETURNS boolean
LANGUAGE plpgsql AS $$
BEGIN
  IF p_hold IS NOT TRUE THEN
    RAISE EXCEPTION 'an account''s available balance would go below zero within the write'
      USING ERRCODE = 'LG004';
  END IF;
  RETURN true;
END $$;
