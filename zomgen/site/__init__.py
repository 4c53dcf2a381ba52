"""`zomgen site`: a convention's validator page (bundle.py builds it; page.ts is its code)."""
